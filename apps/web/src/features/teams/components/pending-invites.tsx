import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { Team, TeamInvite } from '@sightline/contracts';
import { formatDateTime } from '../../../lib/dates';
import { useRemoveFromTeam } from '../api/remove-from-team';
import { useTeamsT } from '../i18n';

/** Pending invites with their expiry; admins cancel them (spec `remove` with `{invite}`). */
export function PendingInvites({ team, invites }: { team: Team; invites: TeamInvite[] }) {
  const { t } = useTeamsT();
  const remove = useRemoveFromTeam();
  if (invites.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('page.noInvites')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="team-invites">
      {invites.map((i) => (
        <Paper key={i.id} withBorder p="sm" radius="md" data-testid="team-invite">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={500} truncate>
                {i.email}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`roles.${i.role}`)} · {t('page.expires', { date: formatDateTime(i.expiresAt) })}
              </Text>
            </Stack>
            {team.abilities.canRemove && (
              <Button size="compact-sm" variant="subtle" color="red" loading={remove.isPending && remove.variables && 'invite' in remove.variables && remove.variables.invite === i.id} onClick={() => remove.mutate({ teamId: team.id, invite: i.id })}>
                {t('page.cancelInvite')}
              </Button>
            )}
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
