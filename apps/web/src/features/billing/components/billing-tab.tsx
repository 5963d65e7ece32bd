import { Alert, Loader, Stack } from '@mantine/core';
import { IconAlertCircle, IconCreditCardOff } from '@tabler/icons-react';
import { Messages } from '@sightline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { meQueryKey, useMe } from '../../../lib/auth';
import { notifications } from '../../../lib/notifications';
import { useRemoteConfig } from '../../../lib/remote-config';
import { useBilling } from '../api/get-billing';
import { useLedger } from '../api/get-ledger';
import { useBillingT } from '../i18n';
import { HistoryCard } from './history-card';
import { LedgerTable } from './ledger-table';
import { PlanCard } from './plan-card';
import { WalletCard } from './wallet-card';

const WAIT_MS = 30_000;

/**
 * The billing tab of Settings (spec §1): plan and renewal, the wallet with its ledger, billing
 * history and the portal. With billing off it says so plainly. Coming back from Stripe
 * (`?checkout=success`, `?topup=success`) it polls until the webhook has landed.
 */
export function BillingTab() {
  const { t } = useBillingT();
  const { user } = useMe();
  const { config } = useRemoteConfig();
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const returned = params.get('checkout') === 'success' ? 'checkout' : params.get('topup') === 'success' ? 'topup' : null;
  const [waitUntil] = useState(() => (returned ? Date.now() + WAIT_MS : 0));
  const billing = useBilling((s) => Date.now() < waitUntil && (returned !== 'checkout' || s?.plan === 'free'));
  const ledger = useLedger(10, returned === 'topup' && Date.now() < waitUntil);
  const summary = billing.data;

  // The plan changed (webhook, admin): the sidebar and guards read it from `me`.
  useEffect(() => {
    if (summary && user && summary.plan !== user.plan) void qc.invalidateQueries({ queryKey: meQueryKey });
  }, [summary, user, qc]);

  useEffect(() => {
    if (!returned || !summary) return;
    if (returned === 'checkout' && summary.plan !== 'free') notifications.success(t('plan.upgraded'));
    else if (returned === 'topup') notifications.success(t('wallet.toppedUp'));
    else return;
    const next = new URLSearchParams(params);
    next.delete('checkout');
    next.delete('topup');
    setParams(next, { replace: true });
  }, [returned, summary, params, setParams, t]);

  if (billing.isPending) return <Loader size="sm" />;
  if (!summary)
    return (
      <Alert color="red" icon={<IconAlertCircle size={18} />}>
        {Messages.unableBillingInfo}
      </Alert>
    );

  const entries = ledger.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <Stack gap="lg" data-testid="billing-tab">
      {!summary.enabled && (
        <Alert color="gray" variant="light" icon={<IconCreditCardOff size={18} />} title={t('off.title')} data-testid="billing-off">
          {t('off.body')}
        </Alert>
      )}
      {returned === 'checkout' && summary.plan === 'free' && (
        <Alert color="blue" variant="light">
          {t('plan.waiting')}
        </Alert>
      )}
      <PlanCard summary={summary} />
      <WalletCard summary={summary} walletTopUpFlag={config.flags.walletTopUp} cloudTrainingFlag={config.flags.cloudTraining}>
        <LedgerTable entries={entries} hasMore={ledger.hasNextPage} onMore={() => void ledger.fetchNextPage()} loadingMore={ledger.isFetchingNextPage} />
      </WalletCard>
      {summary.abilities.history && <HistoryCard />}
    </Stack>
  );
}
