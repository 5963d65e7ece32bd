import { Badge, Loader } from '@mantine/core';
import type { Model, ModelStatus } from '@sightline/contracts';
import { useModelStatus, useModelWatch } from '../hooks/use-model-status';
import { useModelsT } from '../i18n';

/** Dark enough for 4.5:1 text on their own light tint over the gray page (the light variant derives both from one hex). */
const COLORS: Record<ModelStatus, string> = {
  Status: '#495057',
  New: '#004ac3',
  Initializing: '#6e4a00',
  Training: '#8a3c00',
  Timeout: '#a51d1d',
  Trained: '#17632a',
};

export function ModelStatusBadge({ status, size = 'md' }: { status: ModelStatus; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useModelsT();
  const busy = status === 'Training' || status === 'Initializing';
  return (
    <Badge
      color={COLORS[status]}
      variant="light"
      size={size}
      data-testid="model-status"
      data-status={status}
      leftSection={busy ? <Loader size={10} color={COLORS[status]} aria-hidden /> : undefined}
    >
      {t(`status.${status}`)}
    </Badge>
  );
}

/** The status of a model that keeps itself current: a 30 s clock and, until Trained, the live listener. */
export function LiveModelStatusBadge({ model, watch = true, size }: { model: Pick<Model, 'id' | 'project' | 'dates'>; watch?: boolean; size?: 'sm' | 'md' | 'lg' }) {
  const status = useModelStatus(model.dates);
  useModelWatch(model, status, watch);
  return <ModelStatusBadge status={status} size={size} />;
}
