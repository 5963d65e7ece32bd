import { useEffect } from 'react';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertTriangle, IconBell, IconCheck, IconClock, IconCube, IconDatabase, IconFileExport, IconRocket, IconUsersGroup } from '@tabler/icons-react';
import type { AppNotification, NotificationKind } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import { notifications, useNotifications, type PastNotification } from '../../../lib/notifications';
import { InviteActions } from '../../teams';
import { useNotificationRecords } from '../api/get-notifications';
import { useMarkAllRead } from '../api/mark-read';

const TEXT: Record<NotificationKind, string> = {
  'team.invite': 'notifications.invite',
  'dataset.processed': 'notifications.datasetProcessed',
  'dataset.failed': 'notifications.datasetFailed',
  'training.completed': 'notifications.trainingCompleted',
  'training.failed': 'notifications.trainingFailed',
  'export.succeeded': 'notifications.exportSucceeded',
  'upgrade.requested': 'notifications.upgradeRequested',
};
const ICON: Record<NotificationKind, typeof IconBell> = {
  'team.invite': IconUsersGroup,
  'dataset.processed': IconDatabase,
  'dataset.failed': IconDatabase,
  'training.completed': IconCube,
  'training.failed': IconCube,
  'export.succeeded': IconFileExport,
  'upgrade.requested': IconRocket,
};
const failed = (kind: NotificationKind) => kind.endsWith('.failed');

/** One record: what happened, when, and where it leads; a pending invite carries Join and Decline. */
function RecordRow({ n }: { n: AppNotification }) {
  const { t } = useTranslation('pages');
  const Icon = ICON[n.kind];
  const pendingInvite = n.kind === 'team.invite' && n.invite?.pending;
  const name = n.subject.name || n.subject.id;
  const text =
    n.kind === 'team.invite' && !pendingInvite
      ? t('notifications.inviteClosed', { name })
      : t(TEXT[n.kind], { name, invitedBy: n.invite?.invitedBy ?? '', format: n.detail ?? '' });
  return (
    <Paper withBorder p="sm" radius="md" data-testid="notification-record" data-kind={n.kind} data-read={n.read || undefined}>
      {/* Text and actions side by side where there is room; on a phone the actions go below. */}
      <Group wrap="wrap" align="flex-start" justify="space-between" gap="sm">
        <Group wrap="nowrap" align="flex-start" style={{ flex: '1 1 260px', minWidth: 0 }}>
          <ThemeIcon color={failed(n.kind) ? 'red' : pendingInvite ? 'violet' : 'green'} variant="light" radius="xl">
            <Icon size={16} aria-hidden />
          </ThemeIcon>
          <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="xs" wrap="wrap">
              <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
                {text}
              </Text>
              {!n.read && (
                <Badge size="xs" variant="light" color="red">
                  {t('notifications.new')}
                </Badge>
              )}
            </Group>
            {failed(n.kind) && n.detail && (
              <Text size="xs" c="red.8" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
                {n.detail}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              {formatDateTime(n.created)}
              {pendingInvite && n.invite ? ` · ${t('notifications.inviteExpires', { date: formatDateTime(n.invite.expires) })}` : ''}
            </Text>
          </Stack>
        </Group>
        <Group gap="sm" wrap="nowrap" ml="auto">
          <Anchor component={Link} to={n.path} size="sm">
            {t('notifications.open')}
          </Anchor>
          {pendingInvite && <InviteActions teamId={n.subject.id} />}
        </Group>
      </Group>
    </Paper>
  );
}

const PAST_ICON = { success: IconCheck, error: IconAlertTriangle, pending: IconClock };
const PAST_COLOR = { success: 'green', error: 'red', pending: 'night' };

/** A message shown as a toast in this browser (kept in the browser only). */
function PastRow({ n }: { n: PastNotification }) {
  const Icon = PAST_ICON[n.type];
  return (
    <Paper withBorder p="sm" radius="md" data-testid="past-notification">
      <Group wrap="nowrap">
        <ThemeIcon color={PAST_COLOR[n.type]} variant="light" radius="xl">
          <Icon size={16} aria-hidden />
        </ThemeIcon>
        <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
          <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
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

/**
 * /notifications: the caller's records (ADR 0028) — pending team invites with Join and Decline,
 * dataset, training and export outcomes — marked read when the page opens; below them, the
 * messages this browser showed as toasts.
 */
export default function NotificationsPage() {
  const { t } = useTranslation('pages');
  const records = useNotificationRecords();
  const markAll = useMarkAllRead();
  const history = useNotifications((s) => s.history);
  const items = records.data?.pages.flatMap((p) => p.items) ?? [];
  const unread = records.data?.pages[0]?.unread ?? 0;
  const { mutate } = markAll;
  // Opening the page reads what it shows: once the list has loaded with something unread.
  useEffect(() => {
    if (unread > 0) mutate();
  }, [unread, mutate]);

  return (
    <Stack gap="md" maw={860}>
      <PageHeader title={t('notifications.title')} description={t('notifications.description')} />
      {records.isError && (
        <Alert color="red" variant="light">
          {t('notifications.loadFailed', { reason: isApiError(records.error) ? records.error.message : '' })}
        </Alert>
      )}
      {records.isSuccess && items.length === 0 && history.length === 0 && (
        <Group gap="sm" c="dimmed" data-testid="notifications-empty">
          <IconBell size={18} aria-hidden />
          <Text size="sm">{t('notifications.empty')}</Text>
        </Group>
      )}
      {items.length > 0 && (
        <Stack gap="xs" data-testid="notification-list">
          {items.map((n) => (
            <RecordRow key={n.id} n={n} />
          ))}
          {records.hasNextPage && (
            <Button variant="subtle" onClick={() => void records.fetchNextPage()} loading={records.isFetchingNextPage}>
              {t('notifications.older')}
            </Button>
          )}
        </Stack>
      )}
      {history.length > 0 && (
        <Stack gap="xs" mt="md">
          <Group justify="space-between">
            <Title order={2} fz="md">
              {t('notifications.inBrowser')}
            </Title>
            <Button size="compact-sm" variant="subtle" onClick={() => notifications.clearHistory()}>
              {t('notifications.clear')}
            </Button>
          </Group>
          {history.map((n) => (
            <PastRow key={n.id} n={n} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
