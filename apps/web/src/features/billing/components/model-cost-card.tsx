import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { Messages } from '@sightline/contracts';
import { useEffect, useState } from 'react';
import { notifications } from '../../../lib/notifications';
import { useBilling } from '../api/get-billing';
import { useModelCost } from '../api/get-model-cost';
import { useBillingT } from '../i18n';
import { LedgerTable } from './ledger-table';
import { Money } from './money';
import { TopUpDialog } from './top-up-dialog';

/**
 * What a model's training cost (owner only): charged, on hold, returned, the runs (billing records
 * of spec §3, newest first) and their ledger entries. A failed load says 'Unable to get billing
 * information' (spec §8).
 */
export function ModelCostCard({ modelId, isOwner }: { modelId: string; isOwner: boolean }) {
  const { t } = useBillingT();
  const cost = useModelCost(modelId, isOwner);
  const billing = useBilling();
  const [open, setOpen] = useState(false);
  useEffect(() => {
    if (cost.isError) notifications.error(Messages.unableBillingInfo);
  }, [cost.isError]);
  if (!isOwner) return null;
  const c = cost.data;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="model-cost">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} fz="md">
            {t('modelCost.title')}
          </Title>
          {billing.data?.abilities.topUp && (
            <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setOpen(true)}>
              {t('wallet.topUp')}
            </Button>
          )}
        </Group>
        {cost.isError ? (
          <Text size="sm" c="red">
            {Messages.unableBillingInfo}
          </Text>
        ) : !c ? (
          <Text size="sm" c="dimmed">
            …
          </Text>
        ) : (
          <>
            <SimpleGrid cols={3} spacing="xs">
              <Figure label={t('modelCost.charged')} micro={c.charged} />
              <Figure label={t('modelCost.held')} micro={c.held} />
              <Figure label={t('modelCost.released')} micro={c.released} />
            </SimpleGrid>
            {c.records.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('modelCost.empty')}
              </Text>
            ) : (
              <Stack gap={4}>
                {c.records.map((r) => (
                  <Group key={r.id} gap="xs">
                    <Badge size="sm" variant="light">
                      {t(`modelCost.status.${r.status}`, { defaultValue: r.status })}
                    </Badge>
                    <Text size="sm">{t('modelCost.started', { date: new Date(r.dates.start).toLocaleString() })}</Text>
                    <Money size="sm" micro={r.amounts.charged} />
                  </Group>
                ))}
              </Stack>
            )}
            {c.entries.length > 0 && <LedgerTable entries={c.entries} />}
          </>
        )}
      </Stack>
      <TopUpDialog opened={open} onClose={() => setOpen(false)} modelId={modelId} />
    </Paper>
  );
}

function Figure({ label, micro }: { label: string; micro: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Money micro={micro} fw={600} />
    </div>
  );
}
