import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { formatDateTime } from '../../../lib/dates';
import { useAcceptInvite } from '../api/accept-invite';
import { useMyInvites } from '../api/get-my-invites';
import { useRejectInvite } from '../api/reject-invite';
import { useTeamsT } from '../i18n';

/** Pending team invites of the caller, on /notifications: join or decline from here. */
export function MyInvites() {
  const { t } = useTeamsT();
  const invites = useMyInvites();
  const accept = useAcceptInvite();
  const reject = useRejectInvite();
  if (!invites.data?.length) return null;
  return (
    <Stack gap="xs" mb="lg" data-testid="my-team-invites">
      <Title order={4}>{t('notificationsTitle')}</Title>
      {invites.data.map((i) => (
        <Paper key={i.id} withBorder p="sm" radius="md" data-testid="my-team-invite">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={0}>
              <Text size="sm" fw={500}>
                {t('page.inviteTitle', { name: i.parent.name })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('page.inviteBody', { owner: i.invitedBy.username, role: t(`roles.${i.role}`), date: formatDateTime(i.expiresAt) })}
              </Text>
            </Stack>
            <Group gap="xs">
              <Button component={Link} to={`/teams/${i.parent.id}`} size="compact-sm" variant="subtle">
                {t('messages.openInvite')}
              </Button>
              <Button size="compact-sm" variant="default" loading={reject.isPending} onClick={() => reject.mutate({ id: i.parent.id })}>
                {t('reject')}
              </Button>
              <Button size="compact-sm" loading={accept.isPending} onClick={() => accept.mutate({ id: i.parent.id })} data-testid="my-invite-join">
                {t('join')}
              </Button>
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
