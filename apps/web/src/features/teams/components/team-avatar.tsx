import { Avatar } from '@mantine/core';
import { teamAcronym, type Team } from '@sightline/contracts';

/** The team's image, or its acronym when it has none. */
export function TeamAvatar({ team, size = 48 }: { team: Pick<Team, 'meta'>; size?: number }) {
  return (
    <Avatar src={team.meta.image?.url ?? null} alt={team.meta.name} size={size} radius="md" color="violet" data-testid="team-avatar">
      {teamAcronym(team.meta.name)}
    </Avatar>
  );
}
