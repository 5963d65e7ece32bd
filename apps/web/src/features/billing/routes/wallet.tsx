import { Button, Group, Stack, Text } from '@mantine/core';
import { IconWallet } from '@tabler/icons-react';
import { isPaidPlan } from '@sightline/contracts';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { useMe } from '../../../lib/auth';
import { useBilling } from '../api/get-billing';
import { useLedger } from '../api/get-ledger';
import { LedgerTable } from '../components/ledger-table';
import { Money } from '../components/money';
import { SectionCard } from '../../../components/section-card';
import { useBillingT } from '../i18n';

/** The wallet (pro and enterprise): balances and every ledger entry; on Free, why there is none and where to look. */
export default function WalletPage() {
  const { t } = useBillingT();
  const { user, isPending } = useMe();
  if (isPending) return <PageLoader />;
  if (!isPaidPlan(user?.plan)) {
    return (
      <Stack gap="lg" maw={960}>
        <PageHeader title={t('walletPage.title')} />
        <EmptyState
          icon={<IconWallet size={28} />}
          title={t('walletPage.freeTitle')}
          description={t('walletPage.freeBody')}
          action={
            <Button component={Link} to="/plans" data-testid="wallet-compare-plans">
              {t('compare.open')}
            </Button>
          }
        />
      </Stack>
    );
  }
  return <Wallet />;
}

function Wallet() {
  const { t } = useBillingT();
  const billing = useBilling();
  const ledger = useLedger(50);
  if (!billing.data) return <PageLoader />;
  const entries = ledger.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title={t('walletPage.title')} description={t('walletPage.description')} />
      <SectionCard title={t('wallet.title')} testId="wallet-page">
        <Group gap="xl">
          <div>
            <Text size="xs" c="dimmed">
              {t('wallet.balance')}
            </Text>
            <Money micro={billing.data.wallet.balance} fz={28} fw={700} />
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('wallet.held')}
            </Text>
            <Money micro={billing.data.wallet.held} fz="lg" />
          </div>
        </Group>
        <LedgerTable entries={entries} hasMore={ledger.hasNextPage} onMore={() => void ledger.fetchNextPage()} loadingMore={ledger.isFetchingNextPage} />
      </SectionCard>
    </Stack>
  );
}
