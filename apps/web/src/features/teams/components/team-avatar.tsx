import { Avatar } from '@mantine/core';
import { teamAcronym, type Team } from '@sightline/contracts';
import { useLogoLoadWarning } from '../../../lib/logo-load';

/** The team's image, or its acronym when it has none. */
export function TeamAvatar({ team, size = 48 }: { team: Pick<Team, 'meta'>; size?: number }) {
  const watch = useLogoLoadWarning(team.meta.image?.url, 'team logo');
  return (
    <Avatar src={team.meta.image?.url ?? null} alt={team.meta.name} size={size} radius="md" color="violet" data-testid="team-avatar" imageProps={watch}>
      {teamAcronym(team.meta.name)}
    </Avatar>
  );
}
