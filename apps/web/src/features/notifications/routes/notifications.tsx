import { Anchor, Button, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconCheck, IconClock } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { MyInvites } from '../../teams';
import { notifications, useNotifications, type PastNotification } from '../../../lib/notifications';

const ICON = { success: IconCheck, error: IconAlertTriangle, pending: IconClock };
const COLOR = { success: 'green', error: 'red', pending: 'night' };

function Row({ n }: { n: PastNotification }) {
  const Icon = ICON[n.type];
  return (
    <Paper withBorder p="sm" radius="md" data-testid="past-notification">
      <Group wrap="nowrap">
        <ThemeIcon color={COLOR[n.type]} variant="light" radius="xl">
          <Icon size={16} aria-hidden />
        </ThemeIcon>
        <Stack gap={0} style={{ flex: 1 }}>
          <Text size="sm" fw={500}>
            {n.message}
          </Text>
          <Text size="xs" c="dimmed">
            {new Date(n.createdAt).toLocaleString()}
          </Text>
        </Stack>
        {n.link?.path && (
          <Anchor component={Link} to={n.link.path} size="sm">
            {n.link.text}
          </Anchor>
        )}
        {n.link?.href && (
          <Anchor href={n.link.href} target="_blank" rel="noopener noreferrer" size="sm">
            {n.link.text}
          </Anchor>
        )}
      </Group>
    </Paper>
  );
}

export default function NotificationsPage() {
  const { t } = useTranslation('pages');
  const history = useNotifications((s) => s.history);
  return (
    <Stack gap={0} maw={860}>
      <PageHeader
        title={t('notifications.title')}
        description={t('notifications.description')}
        actions={
          history.length > 0 && (
            <Button variant="default" onClick={() => notifications.clearHistory()}>
              {t('notifications.clear')}
            </Button>
          )
        }
      />
      <MyInvites />
      {history.length === 0 ? (
        <EmptyState icon={<IconBell size={28} />} title={t('notifications.emptyTitle')} description={t('notifications.emptyBody')} />
      ) : (
        <Stack gap="xs">
          {history.map((n) => (
            <Row key={n.id} n={n} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
