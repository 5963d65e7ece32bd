import { Button, Divider, Drawer, Group, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { formatBytes, PLANS, type AdminUserDetail, type Plan } from '@sightline/contracts';
import { useState } from 'react';
import { notifications } from '../../../lib/notifications';
import { useUserDetail } from '../api/get-user-detail';
import { useUserAction, type UserAction } from '../api/user-actions';
import { useAdminT } from '../i18n';
import { notifyError } from '../../../lib/notify-error';
import { StatusBadge } from './status-badge';

/** One account: usage, plan (set by hand), roles and the account actions. */
export function UserDrawer({ id, onClose, onShowAudit }: { id: string | null; onClose: () => void; onShowAudit: (uid: string) => void }) {
  const { t } = useAdminT();
  const detail = useUserDetail(id).data;
  return (
    <Drawer
      opened={Boolean(id)}
      onClose={onClose}
      position="right"
      size="md"
      title={
        <Title order={2} fz="lg">
          {detail?.username ?? '…'}
        </Title>
      }
      aria-label={t('users.detail')}
    >
      {detail && detail.id === id ? <Detail key={detail.id} u={detail} onShowAudit={onShowAudit} /> : <Text c="dimmed">…</Text>}
    </Drawer>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </Stack>
  );
}

function Detail({ u, onShowAudit }: { u: AdminUserDetail; onShowAudit: (uid: string) => void }) {
  const { t } = useAdminT();
  const { action, plan } = useUserAction(u.id);
  const [chosen, setChosen] = useState<Plan>(u.plan);
  const [reason, setReason] = useState('');
  const run = (a: UserAction) => action.mutate(a, { onSuccess: () => notifications.success(t(`users.done.${a}`)), onError: notifyError });
  const isAdmin = u.roles.includes('admin');
  const coll = (k: 'datasets' | 'models' | 'projects') => {
    const c = u.storage[k];
    return t('users.collection', { count: c.count, trashed: c.trashed, bytes: formatBytes(c.bytes), trashedBytes: formatBytes(c.trashedBytes) });
  };
  return (
    <Stack gap="md" data-testid="admin-user-drawer">
      <Group gap="xs">
        <StatusBadge deleted={u.deleted} disabled={u.disabled} />
        <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {u.email}
        </Text>
      </Group>
      <SimpleGrid cols={2} spacing="sm">
        <Fact label={t('users.col.plan')} value={u.plan} />
        <Fact label={t('users.roles')} value={u.roles.length ? u.roles.join(', ') : '–'} />
        <Fact label={t('users.created')} value={new Date(u.created).toLocaleString()} />
        <Fact label={t('users.col.lastLogin')} value={u.lastLogin ? new Date(u.lastLogin).toLocaleString() : '–'} />
        <Fact label={t('users.apiKeys')} value={u.apiKeys} />
        <Fact label={t('users.sessions')} value={u.sessions} />
        <Fact label={t('users.inference')} value={t('users.inferenceValue', { month: u.inference.thisMonth, total: u.inference.total })} />
        <Fact label={t('users.teams')} value={u.teams} />
      </SimpleGrid>
      <Divider label={t('users.storage', { total: formatBytes(u.storage.total) })} labelPosition="left" />
      <SimpleGrid cols={1} spacing={4}>
        <Fact label={t('users.datasets')} value={coll('datasets')} />
        <Fact label={t('users.models')} value={coll('models')} />
        <Fact label={t('users.projects')} value={coll('projects')} />
      </SimpleGrid>
      <Divider label={t('users.planTitle')} labelPosition="left" />
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('users.col.plan')}
          data={PLANS.map((p) => ({ value: p, label: p }))}
          value={chosen}
          onChange={(v) => v && setChosen(v as Plan)}
          allowDeselect={false}
          w={140}
        />
        <TextInput label={t('users.reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} style={{ flex: '1 1 160px' }} />
        <Button
          disabled={reason.trim().length < 3 || chosen === u.plan}
          loading={plan.isPending}
          onClick={() =>
            plan.mutate({ plan: chosen, reason }, { onSuccess: () => (notifications.success(t('users.planSet')), setReason('')), onError: notifyError })
          }
        >
          {t('users.setPlan')}
        </Button>
      </Group>
      <Divider label={t('users.actions')} labelPosition="left" />
      <Group gap="xs" wrap="wrap">
        <Button
          size="xs"
          variant="light"
          loading={action.isPending && (action.variables === 'grant-admin' || action.variables === 'revoke-admin')}
          onClick={() => run(isAdmin ? 'revoke-admin' : 'grant-admin')}
        >
          {t(isAdmin ? 'users.revokeAdmin' : 'users.grantAdmin')}
        </Button>
        <Button size="xs" variant="light" loading={action.isPending && action.variables === 'sign-out'} onClick={() => run('sign-out')}>
          {t('users.signOutEverywhere')}
        </Button>
        {u.disabled ? (
          <Button size="xs" variant="light" color="green" onClick={() => run('enable')}>
            {t('users.enable')}
          </Button>
        ) : (
          <Button size="xs" variant="light" color="orange" onClick={() => run('disable')}>
            {t('users.disable')}
          </Button>
        )}
        {u.deleted ? (
          <Button size="xs" variant="light" color="green" onClick={() => run('restore')}>
            {t('users.restore')}
          </Button>
        ) : (
          <Button size="xs" variant="light" color="red" onClick={() => window.confirm(t('users.deleteConfirm', { email: u.email })) && run('delete')}>
            {t('users.delete')}
          </Button>
        )}
        <Button size="xs" variant="subtle" onClick={() => onShowAudit(u.id)}>
          {t('users.showAudit')}
        </Button>
      </Group>
    </Stack>
  );
}
