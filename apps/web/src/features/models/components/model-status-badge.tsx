import { Badge, Loader } from '@mantine/core';
import type { Model, ModelStatus } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { useModelStatus, useModelWatch } from '../hooks/use-model-status';

const COLORS: Record<ModelStatus, string> = {
  Status: 'gray',
  New: 'blue',
  Initializing: 'yellow',
  Training: 'orange',
  Timeout: 'red',
  Trained: 'green',
};

export function ModelStatusBadge({ status, size = 'md' }: { status: ModelStatus; size?: 'sm' | 'md' | 'lg' }) {
  const { t } = useTranslation('pages');
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
      {t(`models.status.${status}`)}
    </Badge>
  );
}

/** The status of a model that keeps itself current: a 30 s clock and, until Trained, the live listener. */
export function LiveModelStatusBadge({ model, watch = true, size }: { model: Pick<Model, 'id' | 'project' | 'dates'>; watch?: boolean; size?: 'sm' | 'md' | 'lg' }) {
  const status = useModelStatus(model.dates);
  useModelWatch(model, status, watch);
  return <ModelStatusBadge status={status} size={size} />;
}
