import { Alert, Button, Group, NumberInput, Paper, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { formatMicroUsd, PLANS, type AdminPlanRow, type Plan } from '@sightline/contracts';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { notifications } from '../../../lib/notifications';
import { useCreditWallet } from '../api/credit-wallet';
import { useAdminPlans } from '../api/get-admin-plans';
import { useAdminUserBilling } from '../api/get-admin-user-billing';
import { useBilling } from '../api/get-billing';
import { useBillingUsers } from '../api/get-billing-users';
import { useSetUserPlan } from '../api/set-user-plan';
import { useUpdatePlanLimits } from '../api/update-plan-limits';
import { useBillingT } from '../i18n';
import { notifyError } from '../../../lib/notify-error';
import { LedgerTable } from './ledger-table';

/** Admin page section: set a user's plan and credit a wallet by hand (who and why recorded); plan limits. */
export function AdminBillingSection() {
  const { t } = useBillingT();
  const billing = useBilling();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const users = useBillingUsers(debounced);
  const [picked, setPicked] = useState<{ value: string; label: string } | null>(null);
  const uid = picked?.value ?? null;
  // The server narrows the accounts (its first page of matches); the picked one stays listed while the search changes.
  const options = (users.data?.items ?? []).map((u) => ({ value: u.id, label: `${u.username} · ${u.email}` }));
  if (picked && !options.some((o) => o.value === picked.value)) options.unshift(picked);
  return (
    <Paper withBorder p="lg" radius="md" mt="lg" data-testid="admin-billing">
      <Stack gap="md">
        <Title order={2} fz="lg">
          {t('admin.title')}
        </Title>
        {billing.data && (
          <Alert color={billing.data.enabled ? 'blue' : 'gray'} variant="light" p="xs">
            {billing.data.enabled ? t('admin.on') : t('admin.off')}
          </Alert>
        )}
        <Select
          label={t('admin.user')}
          placeholder={t('admin.pickUser')}
          searchable
          searchValue={search}
          onSearchChange={setSearch}
          filter={({ options: all }) => all}
          data={options}
          value={uid}
          onChange={(value, option) => setPicked(value && option ? { value, label: option.label } : null)}
          description={users.data?.nextCursor ? t('admin.pickUserMore') : undefined}
          maw={480}
        />
        {uid && <UserBilling key={uid} uid={uid} />}
        <PlanLimitsTable />
      </Stack>
    </Paper>
  );
}

function UserBilling({ uid }: { uid: string }) {
  const { t } = useBillingT();
  const data = useAdminUserBilling(uid).data;
  const setPlan = useSetUserPlan();
  const credit = useCreditWallet();
  const [plan, setPlanValue] = useState<Plan | null>(null);
  const [reason, setReason] = useState('');
  const [amount, setAmount] = useState<number | string>('');
  const [creditReason, setCreditReason] = useState('');
  if (!data) return <Text size="sm">…</Text>;
  const chosen = plan ?? data.plan;
  return (
    <Stack gap="sm">
      <Text size="sm" data-testid="admin-user-wallet">
        {t(`plans.${data.plan}`)} · {t('admin.wallet', { balance: formatMicroUsd(data.wallet.balance), held: formatMicroUsd(data.wallet.held) })}
      </Text>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('admin.plan')}
          data={PLANS.map((p) => ({ value: p, label: t(`plans.${p}`) }))}
          value={chosen}
          onChange={(v) => setPlanValue(v as Plan)}
          w={160}
          allowDeselect={false}
        />
        <TextInput label={t('admin.reason')} value={reason} onChange={(e) => setReason(e.currentTarget.value)} w={260} />
        <Button
          disabled={reason.trim().length < 3}
          loading={setPlan.isPending}
          onClick={() =>
            setPlan.mutate({ uid, plan: chosen, reason }, { onSuccess: () => (notifications.success(t('admin.planSet')), setReason('')), onError: notifyError })
          }
        >
          {t('admin.setPlan')}
        </Button>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap">
        <NumberInput label={t('admin.credit')} prefix="$" min={0.01} decimalScale={2} value={amount} onChange={setAmount} w={160} />
        <TextInput label={t('admin.reason')} value={creditReason} onChange={(e) => setCreditReason(e.currentTarget.value)} w={260} />
        <Button
          variant="light"
          disabled={!(Number(amount) > 0) || creditReason.trim().length < 3}
          loading={credit.isPending}
          onClick={() =>
            credit.mutate(
              { uid, amount: Number(amount), reason: creditReason },
              { onSuccess: () => (notifications.success(t('admin.credited')), setAmount(''), setCreditReason('')), onError: notifyError },
            )
          }
        >
          {t('admin.creditWallet')}
        </Button>
      </Group>
      <LedgerTable entries={data.entries} />
    </Stack>
  );
}

type Editable = 'storageBytes' | 'models' | 'inferencePerHour' | 'inferencePerMonth' | 'cloudRunsConcurrent';
const GB = 1024 ** 3;

function PlanLimitsTable() {
  const { t } = useBillingT();
  const plans = useAdminPlans();
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {t('admin.limits')}
      </Text>
      <Text size="xs" c="dimmed">
        {t('admin.limitsHint')}
      </Text>
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing={4} aria-label={t('admin.limits')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('admin.plan')}</Table.Th>
              <Table.Th>{t('admin.storageGb')}</Table.Th>
              <Table.Th>{t('admin.models')}</Table.Th>
              <Table.Th>{t('admin.perHour')}</Table.Th>
              <Table.Th>{t('admin.perMonth')}</Table.Th>
              <Table.Th>{t('admin.cloudRuns')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(plans.data ?? []).map((row) => (
              <PlanRow key={`${row.plan}:${row.overridden.join()}:${row.limits.storageBytes}`} row={row} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function PlanRow({ row }: { row: AdminPlanRow }) {
  const { t } = useBillingT();
  const update = useUpdatePlanLimits();
  const [draft, setDraft] = useState<Record<Editable, number>>({
    storageBytes: Math.round((row.limits.storageBytes / GB) * 100) / 100,
    models: row.limits.models,
    inferencePerHour: row.limits.inferencePerHour,
    inferencePerMonth: row.limits.inferencePerMonth,
    cloudRunsConcurrent: row.limits.cloudRunsConcurrent,
  });
  // The model count has no limit at MAX_SAFE_INTEGER: the field is empty and says "Unlimited"; emptying it means that.
  const unlimited = (key: Editable) => key === 'models' && draft[key] >= Number.MAX_SAFE_INTEGER;
  const cell = (key: Editable) => (
    <Table.Td>
      <NumberInput
        size="xs"
        min={0}
        value={unlimited(key) ? '' : draft[key]}
        placeholder={key === 'models' ? t('limits.unlimited') : undefined}
        onChange={(v) => setDraft({ ...draft, [key]: key === 'models' && v === '' ? Number.MAX_SAFE_INTEGER : Number(v) || 0 })}
        aria-label={`${row.plan} ${key}`}
        w={110}
      />
    </Table.Td>
  );
  return (
    <Table.Tr>
      <Table.Td>
        <Text size="sm" fw={500}>
          {t(`plans.${row.plan}`)}
        </Text>
      </Table.Td>
      {cell('storageBytes')}
      {cell('models')}
      {cell('inferencePerHour')}
      {cell('inferencePerMonth')}
      {cell('cloudRunsConcurrent')}
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button
            size="xs"
            loading={update.isPending}
            onClick={() =>
              update.mutate(
                { plan: row.plan, patch: { ...draft, storageBytes: Math.round(draft.storageBytes * GB) } },
                { onSuccess: () => notifications.success(t('admin.saved')), onError: notifyError },
              )
            }
          >
            {t('admin.save')}
          </Button>
          {row.overridden.length > 0 && (
            <Button
              size="xs"
              variant="subtle"
              onClick={() =>
                update.mutate(
                  { plan: row.plan, patch: Object.fromEntries(row.overridden.map((k) => [k, null])) },
                  { onSuccess: () => notifications.success(t('admin.saved')), onError: notifyError },
                )
              }
            >
              {t('admin.reset')}
            </Button>
          )}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
