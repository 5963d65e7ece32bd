import { useEffect, useState } from 'react';
import { Alert, Button, Group, NumberInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconCloudUpload } from '@tabler/icons-react';
import type { CloudTrainingBody, Model } from '@sightline/contracts';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';
import { useCloudEstimate } from '../api/estimate-cloud-training';
import { useCloudRun } from '../api/get-cloud-run';
import { useGpuTypes } from '../api/get-gpu-types';
import { useStartCloudTraining } from '../api/start-cloud-training';
import { usd, useAgentsT } from '../i18n';
import { CloudRunCard } from './cloud-run-card';

/** Debounces a value (the estimate is asked for once typing pauses). */
function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

/**
 * Cloud training of a New model: GPU type (admin-set hourly rates, agents online), Epochs or Timed
 * mode, the estimate held on the wallet, start. Once started, the run card takes its place.
 */
export function CloudTrainingForm({ model }: { model: Model }) {
  const { t } = useAgentsT();
  const types = useGpuTypes();
  const run = useCloudRun(model.id);
  const start = useStartCloudTraining(model.id);
  const [gpuType, setGpuType] = useState<string | null>(null);
  const [mode, setMode] = useState<'epochs' | 'timed'>('epochs');
  const [epochs, setEpochs] = useState<number>(Number(model.config.epochs) || 100);
  const [hours, setHours] = useState<number>(1);
  const chosen = gpuType ?? types.data?.find((g) => g.online > 0)?.id ?? types.data?.[0]?.id ?? null;
  const body: CloudTrainingBody | null = chosen ? { gpuType: chosen, mode, epochs, ...(mode === 'timed' ? { hours } : {}) } : null;
  const estimate = useCloudEstimate(model.id, useDebounced(body));

  if (run.data) return <CloudRunCard modelId={model.id} isOwner />;
  if (types.data && types.data.length === 0) return <Alert variant="light">{t('form.noTypes')}</Alert>;
  const e = estimate.data;
  const selected = types.data?.find((g) => g.id === chosen);

  return (
    <Stack gap="sm" data-testid="cloud-training-form">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label={t('form.gpuType')}
          data={(types.data ?? []).map((g) => ({ value: g.id, label: `${g.name} · ${usd(g.hourlyRateMicro)}/h · ${t('form.online', { count: g.online })}` }))}
          value={chosen}
          onChange={setGpuType}
          allowDeselect={false}
          w={340}
          data-testid="cloud-gpu-type"
        />
        <SegmentedControl
          value={mode}
          onChange={(v) => setMode(v as 'epochs' | 'timed')}
          data={[
            { value: 'epochs', label: t('form.epochsMode') },
            { value: 'timed', label: t('form.timedMode') },
          ]}
        />
        {mode === 'epochs' ? (
          <NumberInput
            label={t('form.epochs')}
            value={epochs}
            onChange={(v) => setEpochs(Math.max(1, Number(v) || 1))}
            min={1}
            max={10000}
            allowDecimal={false}
            w={120}
            data-testid="cloud-epochs-input"
          />
        ) : (
          <NumberInput
            label={t('form.hours')}
            value={hours}
            onChange={(v) => setHours(Math.max(0.05, Number(v) || 0.05))}
            min={0.05}
            max={168}
            step={0.5}
            decimalScale={2}
            w={120}
          />
        )}
      </Group>
      {selected && selected.online === 0 && (
        <Text size="sm" c="yellow.8">
          {t('form.noneOnline')}
        </Text>
      )}
      {e && (
        <Text size="sm" data-testid="cloud-estimate">
          {t('form.estimate', {
            cost: usd(e.estimateMicro),
            epochs: e.epochs,
            hours: e.hours.toFixed(2),
            perEpoch: usd(e.pricePerEpochMicro),
            wallet: usd(e.walletMicro),
          })}
        </Text>
      )}
      {e && !e.canStart && e.reason && (
        <Alert color="yellow" variant="light" data-testid="cloud-refused">
          {e.reason}
        </Alert>
      )}
      {start.error && (
        <Alert color="red" variant="light">
          {isApiError(start.error) ? errorMessage(start.error.code, start.error.message) : String(start.error)}
        </Alert>
      )}
      <Group>
        <Button
          leftSection={<IconCloudUpload size={16} />}
          disabled={!e?.canStart || !body}
          loading={start.isPending}
          onClick={() => body && start.mutate(body)}
          data-testid="cloud-start"
        >
          {t('form.start')}
        </Button>
      </Group>
    </Stack>
  );
}
