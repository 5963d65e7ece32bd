import { Badge, Button, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import type { AdminUpgradeRequest, UpgradeRequestStatus } from '@sightline/contracts';
import { useState } from 'react';
import { notifications } from '../../../lib/notifications';
import { notifyError } from '../../../lib/notify-error';
import { useAdminUpgradeRequests, useDecideUpgradeRequest } from '../api/upgrade-requests';
import { useBillingT } from '../i18n';

/** The number of open upgrade requests, for the admin tab's badge. */
export function useOpenUpgradeRequests(enabled: boolean): number {
  return useAdminUpgradeRequests('open', enabled).data?.open ?? 0;
}

/** Admin: users' upgrade requests, newest first; Grant sets the plan at once (ADR 0030). */
export function AdminUpgradeRequests() {
  const { t } = useBillingT();
  const [status, setStatus] = useState<UpgradeRequestStatus>('open');
  const list = useAdminUpgradeRequests(status);
  const rows = list.data?.requests ?? [];
  return (
    <Stack gap="md" data-testid="admin-upgrade-requests">
      <Text size="sm" c="dimmed">
        {t('adminRequests.description')}
      </Text>
      <SegmentedControl
        size="xs"
        w="fit-content"
        value={status}
        onChange={(v) => setStatus(v as UpgradeRequestStatus)}
        data={(['open', 'granted', 'dismissed'] as const).map((s) => ({ value: s, label: t(`adminRequests.status.${s}`) }))}
        aria-label={t('adminRequests.filter')}
      />
      {rows.length === 0 ? (
        <Text c="dimmed">{list.isLoading ? '…' : t(`adminRequests.empty.${status}`)}</Text>
      ) : (
        rows.map((r) => <RequestCard key={r.id} request={r} />)
      )}
    </Stack>
  );
}

function RequestCard({ request: r }: { request: AdminUpgradeRequest }) {
  const { t } = useBillingT();
  const decide = useDecideUpgradeRequest();
  const act = (action: 'grant' | 'dismiss') =>
    decide.mutate(
      { id: r.id, action },
      {
        onSuccess: () =>
          notifications.success(
            t(action === 'grant' ? 'adminRequests.grantDone' : 'adminRequests.dismissDone', { user: r.user.username, plan: t(`plans.${r.plan}`) }),
          ),
        onError: notifyError,
      },
    );
  return (
    <Paper withBorder p="md" radius="md" data-testid="upgrade-request">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 260px' }}>
          <Group gap={6} wrap="wrap">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
              {t('adminRequests.asks', { user: r.user.username, plan: t(`plans.${r.plan}`) })}
            </Text>
            <Badge size="sm" variant="light" color="gray">
              {t('adminRequests.now', { plan: t(`plans.${r.user.plan}`) })}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {r.user.email} · {new Date(r.created).toLocaleString()}
            {r.decidedBy && r.decided ? ` · ${t('adminRequests.decidedBy', { user: r.decidedBy.username, date: new Date(r.decided).toLocaleString() })}` : ''}
          </Text>
          {r.message && (
            <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
              {r.message}
            </Text>
          )}
        </Stack>
        {r.status === 'open' && (
          <Group gap="xs">
            <Button
              size="xs"
              leftSection={<IconCheck size={14} />}
              loading={decide.isPending && decide.variables?.action === 'grant'}
              onClick={() => act('grant')}
              data-testid="grant-request"
            >
              {t('adminRequests.grant', { plan: t(`plans.${r.plan}`) })}
            </Button>
            <Button
              size="xs"
              variant="subtle"
              color="gray"
              leftSection={<IconX size={14} />}
              loading={decide.isPending && decide.variables?.action === 'dismiss'}
              onClick={() => act('dismiss')}
            >
              {t('adminRequests.dismiss')}
            </Button>
          </Group>
        )}
      </Group>
    </Paper>
  );
}
