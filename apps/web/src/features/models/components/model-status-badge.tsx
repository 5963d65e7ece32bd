import { Badge, Loader, Tooltip } from '@mantine/core';
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
  Stopped: '#5c4a00',
  Failed: '#a51d1d',
};

/** Why a run ended the way it did (the agent's or client's words), for Failed, Stopped and Timeout. */
export function runReason(status: ModelStatus, run: { error?: string | null } | null | undefined): string | null {
  if (status !== 'Failed' && status !== 'Stopped' && status !== 'Timeout') return null;
  const first = run?.error?.split('\n').find((l) => l.trim());
  return first ? first.trim() : null;
}

export function ModelStatusBadge({ status, size = 'md', reason = null }: { status: ModelStatus; size?: 'sm' | 'md' | 'lg'; reason?: string | null }) {
  const { t } = useModelsT();
  const busy = status === 'Training' || status === 'Initializing';
  const badge = (
    <Badge
      color={COLORS[status]}
      variant="light"
      size={size}
      data-testid="model-status"
      data-status={status}
      data-reason={reason ?? undefined}
      aria-label={reason ? `${t(`status.${status}`)}: ${reason}` : undefined}
      leftSection={busy ? <Loader size={10} color={COLORS[status]} aria-hidden /> : undefined}
    >
      {t(`status.${status}`)}
    </Badge>
  );
  return reason ? (
    <Tooltip label={reason} multiline maw={320} withArrow>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}

/** The status of a model that keeps itself current: a 30 s clock and, until Trained, the live listener. */
export function LiveModelStatusBadge({
  model,
  watch = true,
  size,
}: {
  model: Pick<Model, 'id' | 'project' | 'dates' | 'training'>;
  watch?: boolean;
  size?: 'sm' | 'md' | 'lg';
}) {
  const status = useModelStatus(model.dates, model.training);
  useModelWatch(model, status, watch);
  return <ModelStatusBadge status={status} size={size} reason={runReason(status, model.training)} />;
}
