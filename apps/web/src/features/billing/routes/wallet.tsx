import { Group, Stack, Text } from '@mantine/core';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { useBilling } from '../api/get-billing';
import { useLedger } from '../api/get-ledger';
import { LedgerTable } from '../components/ledger-table';
import { Money } from '../components/money';
import { SectionCard } from '../../../components/section-card';
import { useBillingT } from '../i18n';

/** The wallet (pro and enterprise, behind the pro guard): balances and every ledger entry. */
export default function WalletPage() {
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
