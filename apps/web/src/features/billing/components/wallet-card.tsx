import { Button, Group, Stack, Text } from '@mantine/core';
import { IconPlus, IconWallet } from '@tabler/icons-react';
import { isPaidPlan, type BillingSummary } from '@sightline/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useBillingT } from '../i18n';
import { Money } from './money';
import { SectionCard } from '../../../components/section-card';
import { TopUpDialog } from './top-up-dialog';

/** Balance, money on hold and the top-up button (pro/enterprise and the walletTopUp flag). */
export function WalletCard({
  summary,
  walletTopUpFlag,
  cloudTrainingFlag = true,
  children,
}: {
  summary: BillingSummary;
  walletTopUpFlag: boolean;
  cloudTrainingFlag?: boolean;
  children?: React.ReactNode;
}) {
  const { t } = useBillingT();
  const [open, setOpen] = useState(false);
  const paid = isPaidPlan(summary.plan);
  return (
    <SectionCard title={t('wallet.title')} description={cloudTrainingFlag ? t('wallet.description') : t('wallet.descriptionNoCloud')} testId="wallet-card">
      <Group gap="xl" align="flex-end" wrap="wrap">
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('wallet.balance')}
          </Text>
          <Money micro={summary.wallet.balance} fz={28} fw={700} data-testid="wallet-balance" />
        </Stack>
        <Stack gap={0}>
          <Text size="xs" c="dimmed">
            {t('wallet.held')}
          </Text>
          <Money micro={summary.wallet.held} fz="lg" />
        </Stack>
        <Group gap="sm" ml="auto">
          {summary.abilities.topUp && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setOpen(true)}>
              {t('wallet.topUp')}
            </Button>
          )}
          {paid && (
            <Button component={Link} to="/wallet" variant="default" leftSection={<IconWallet size={16} />}>
              {t('wallet.viewAll')}
            </Button>
          )}
        </Group>
      </Group>
      {!summary.abilities.topUp && summary.enabled && (
        <Text size="sm" c="dimmed">
          {!paid ? t('wallet.proOnly') : !walletTopUpFlag ? t('wallet.flagOff') : null}
        </Text>
      )}
      {children}
      <TopUpDialog opened={open} onClose={() => setOpen(false)} />
    </SectionCard>
  );
}
