import { Alert, Anchor, Group, Stack, Text } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { InviteActions } from '../../teams';
import { useNotificationRecords } from '../api/get-notifications';

/** On Home: the team invites still waiting for an answer, with Join and Decline (ADR 0028). */
export function PendingInvitesBanner() {
  const { t } = useTranslation('pages');
  const records = useNotificationRecords();
  const pending = (records.data?.pages.flatMap((p) => p.items) ?? []).filter((n) => n.kind === 'team.invite' && n.invite?.pending);
  if (!pending.length) return null;
  return (
    <Alert color="violet" variant="light" icon={<IconUsersGroup size={18} aria-hidden />} data-testid="home-invites">
      <Stack gap="xs">
        {pending.map((n) => (
          <Group key={n.id} justify="space-between" wrap="wrap" gap="xs">
            <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
              {t('notifications.invite', { invitedBy: n.invite?.invitedBy ?? '', name: n.subject.name || n.subject.id })}
            </Text>
            <Group gap="sm" wrap="nowrap" ml="auto">
              <Anchor component={Link} to={n.path} size="sm">
                {t('notifications.open')}
              </Anchor>
              <InviteActions teamId={n.subject.id} />
            </Group>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}
