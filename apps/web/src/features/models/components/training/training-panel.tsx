import { useState } from 'react';
import { Alert, Button, Group, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconPlayerStop } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { modelStatus, retrainableStatus, type Model } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../../lib/api-client';
import { errorMessage } from '../../../../lib/i18n';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import { notifications } from '../../../../lib/notifications';
import { useNow } from '../../../../lib/use-now';
import { modelQueryOptions } from '../../api/get-model';
import { useTrainingConsole } from '../../api/training-console';
import { useTrainingMetrics } from '../../api/training-metrics';
import { useStopTraining } from '../../api/training-stop';
import { ConsoleLog } from './console-log';
import { formatAge, formatMoment, HeartbeatIndicator, StatusBadge } from './heartbeat';
import { MetricCharts } from './metric-charts';
import { FinalResults, ResumeCard, resumeCheckpoint } from './run-cards';
import { TrainingOptions } from './training-options';
import { useFallbackPoll, useModelLive } from './use-model-live';

const NEW_MODEL_POLL_MS = 30_000;

/** The fresher of two copies of a model (the page's prop and the query). */
const newer = (a: Model, b: Model | undefined) => (b && new Date(b.dates.updated).getTime() >= new Date(a.dates.updated).getTime() ? b : a);

function StopControl({ model, live }: { model: Model; live: boolean }) {
  const { t } = useTranslation(TRAINING_NS);
  const stop = useStopTraining(model.id);
  const [confirming, setConfirming] = useState(false);
  const run = model.training;
  if (!run || !model.abilities.canEdit || model.dates.train.end) return null;
  if (run.protocol === 'hub') {
    return (
      <Alert color="gray" variant="light" icon={<IconPlayerStop size={18} />} data-testid="legacy-stop-note">
        {t('stop.legacy')}
      </Alert>
    );
  }
  if (run.cancelRequested) {
    return (
      <Alert color="orange" variant="light" icon={<IconPlayerStop size={18} />} data-testid="stop-requested">
        {t('stop.requested')}
      </Alert>
    );
  }
  if (!live) return null;
  return confirming ? (
    <Group gap="xs">
      <Text size="sm">{t('stop.confirm')}</Text>
      <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
        {t('stop.keep')}
      </Button>
      <Button
        size="xs"
        color="red"
        loading={stop.isPending}
        onClick={() =>
          stop.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifications.success(t('stop.sent'));
            },
            onError: (e) => notifications.error(isApiError(e) ? errorMessage(e.code, e.message) : String(e)),
          })
        }
      >
        {t('stop.button')}
      </Button>
    </Group>
  ) : (
    <Button size="xs" color="red" variant="light" leftSection={<IconPlayerStop size={14} />} onClick={() => setConfirming(true)}>
      {t('stop.button')}
    </Button>
  );
}

/** Training tab of the model page: status, epochs, live charts, console, stop and resume, results. */
export function TrainingPanel({ model: initial }: { model: Model }) {
  const { t, i18n } = useTranslation(TRAINING_NS);
  const now = useNow(1000, !initial.dates.train.end);
  const fallback = useFallbackPoll();
  // The page's own model query, polled as a fallback for realtime: slowly while New (a client may start
  // any time), at the fallback pace while a run is live, not at all once it ended.
  const view = useQuery({
    ...modelQueryOptions(initial.id),
    refetchInterval: (q) => {
      const m = q.state.data ?? initial;
      return m.dates.train.end ? false : modelStatus(m.dates) === 'New' ? NEW_MODEL_POLL_MS : fallback;
    },
  });
  const model = newer(initial, view.data);
  // The same status as the header and the lists: dates plus the run's state (ADR 0020).
  const current = modelStatus(model.dates, now, model.training);
  const started = current !== 'New' && current !== 'Status';
  const running = started && !model.dates.train.end && current !== 'Timeout';
  useModelLive(model.id, !model.dates.train.end);
  const poll = running ? fallback : false;
  const run = model.training ?? null;
  const metrics = useTrainingMetrics(model.id, { enabled: started || model.metrics.epochs > 0, refetchInterval: poll });
  const showConsole = model.abilities.canEdit && run?.protocol !== 'hub' && started;
  const consoleQuery = useTrainingConsole(model.id, { enabled: showConsole, refetchInterval: poll });

  const total = run?.epochsTotal ?? model.config.epochs;
  const done = model.metrics.epochs;
  const rows = metrics.data ?? [];

  // Weights uploaded as a file (.pt/.onnx): never trained here, so no epochs, metrics or console.
  if (model.dates.train.end && !model.dates.train.start && !run && !model.metrics.epochs) {
    const weights = model.files.find((f) => f.kind === 'onnx' || f.kind === 'pt' || f.kind === 'best');
    return (
      <Paper withBorder radius="md" p="md" data-testid="training-panel" data-status="Uploaded">
        <Stack gap={6}>
          <Title order={2} fz="lg">
            {t('uploaded.title')}
          </Title>
          <Text size="sm">{weights ? t('uploaded.bodyFile', { name: weights.name }) : t('uploaded.body')}</Text>
          <Text size="sm" c="dimmed">
            {t('uploaded.hint')}
          </Text>
        </Stack>
      </Paper>
    );
  }

  if (!started && !model.metrics.epochs) {
    return (
      <Stack gap="md" data-testid="training-panel" data-status={current}>
        <Group gap="sm">
          <StatusBadge status={current} />
          <Text size="sm" c="dimmed">
            {t('panel.notStarted')}
          </Text>
        </Group>
        {model.abilities.canEdit ? <TrainingOptions model={model} /> : <Text c="dimmed">{t('panel.notStartedViewer')}</Text>}
      </Stack>
    );
  }

  return (
    <Stack gap="md" data-testid="training-panel" data-status={current}>
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap" gap="sm">
            <Group gap="sm">
              <StatusBadge status={current} />
              <HeartbeatIndicator dates={model.dates} now={now} />
            </Group>
            <StopControl model={model} live={current === 'Training' || current === 'Initializing'} />
          </Group>
          <div>
            <Group justify="space-between" mb={4}>
              <Text size="sm" fw={500} data-testid="epoch-progress">
                {t('panel.epochs', { done, total })}
              </Text>
              {run && (
                <Text size="xs" c="dimmed">
                  {run.protocol === 'hub' ? t('panel.clientHub') : t('panel.clientPlatform')}
                </Text>
              )}
            </Group>
            <Progress
              value={total ? Math.min(100, (done / total) * 100) : 0}
              animated={current === 'Training'}
              aria-label={t('panel.epochs', { done, total })}
            />
          </div>
          {(current === 'Failed' || current === 'Stopped') && run?.error && (
            <Alert
              color={current === 'Failed' ? 'red' : 'yellow'}
              variant="light"
              icon={<IconAlertTriangle size={18} />}
              data-testid="run-ended-alert"
              style={{ whiteSpace: 'pre-wrap' }}
            >
              {t(current === 'Failed' ? 'panel.failed' : 'panel.stopped', { reason: run.error })}
            </Alert>
          )}
          {(current === 'Timeout' || run?.stale) && model.dates.train.heartbeat && (
            <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="timeout-alert">
              {t('panel.timeout', {
                since: formatMoment(new Date(model.dates.train.heartbeat), i18n.language),
                age: formatAge(now - new Date(model.dates.train.heartbeat).getTime(), i18n.language),
              })}
              {resumeCheckpoint(model) ? ` ${t('panel.timeoutResume')}` : ''}
            </Alert>
          )}
        </Stack>
      </Paper>

      {current === 'Trained' && <FinalResults model={model} />}
      {retrainableStatus(current) && <ResumeCard model={model} />}

      {rows.length > 0 ? (
        <div>
          <Title order={3} fz="md" mb="xs">
            {current === 'Trained' ? t('charts.titleDone') : t('charts.title')}
          </Title>
          <MetricCharts rows={rows} bestEpoch={run?.bestEpoch ?? null} />
        </div>
      ) : (
        <Text size="sm" c="dimmed" data-testid="no-metrics">
          {metrics.isPending ? t('charts.loading') : t('charts.none')}
        </Text>
      )}

      {showConsole && <ConsoleLog chunks={consoleQuery.data ?? []} />}
      {run?.protocol === 'hub' && model.abilities.canEdit && (
        <Text size="sm" c="dimmed">
          {t('console.legacy')}
        </Text>
      )}
    </Stack>
  );
}
