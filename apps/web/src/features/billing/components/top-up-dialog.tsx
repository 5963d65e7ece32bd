import { Button, Modal, NumberInput, Stack, Text } from '@mantine/core';
import { Messages, TOP_UP_MAX_USD, TOP_UP_MIN_USD } from '@sightline/contracts';
import { useState } from 'react';
import { notifications } from '../../../lib/notifications';
import { useCreateTopUp } from '../api/create-top-up';
import { useBillingT } from '../i18n';

/** Top-up amount ($5–$1,000) → Stripe Checkout. `modelId` names the model the money is for. */
export function TopUpDialog({ opened, onClose, modelId }: { opened: boolean; onClose: () => void; modelId?: string }) {
  const { t } = useBillingT();
  const [amount, setAmount] = useState<number | string>(20);
  const topUp = useCreateTopUp();
  const value = typeof amount === 'number' ? amount : Number.parseFloat(amount);
  const valid = Number.isFinite(value) && value >= TOP_UP_MIN_USD && value <= TOP_UP_MAX_USD;
  const submit = () =>
    topUp.mutate(
      { amount: Math.round(value * 100) / 100, ...(modelId ? { modelId } : {}) },
      { onSuccess: ({ url }) => window.location.assign(url), onError: () => notifications.error(Messages.somethingWrong) },
    );
  return (
    <Modal opened={opened} onClose={onClose} title={t('wallet.topUpTitle')} centered>
      <Stack>
        <NumberInput
          label={t('wallet.amount')}
          description={t('wallet.amountHint')}
          prefix="$"
          min={TOP_UP_MIN_USD}
          max={TOP_UP_MAX_USD}
          decimalScale={2}
          value={amount}
          onChange={setAmount}
          error={valid ? undefined : t('wallet.amountHint')}
          data-autofocus
        />
        {modelId && (
          <Text size="sm" c="dimmed">
            {t('ledger.model', { id: modelId })}
          </Text>
        )}
        <Button onClick={submit} disabled={!valid} loading={topUp.isPending}>
          {t('wallet.continue')}
        </Button>
      </Stack>
    </Modal>
  );
}
