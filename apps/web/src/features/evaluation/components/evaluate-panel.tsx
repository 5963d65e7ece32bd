import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Card, Group, Progress, SegmentedControl, Select, Stack, Table, Text, Title, UnstyledButton } from '@mantine/core';
import { IconPlayerPlay, IconPlayerStop } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { EVALUATION_SPLITS, evaluationActive, topics, type Evaluation, type Model } from '@sightline/contracts';
import { getDatasets } from '../../datasets';
import { formatDateTime } from '../../../lib/dates';
import { notifications } from '../../../lib/notifications';
import { notifyError } from '../../../lib/notify-error';
import { useTopic } from '../../../lib/use-topic';
import { useCancelEvaluation } from '../api/cancel-evaluation';
import { useCreateEvaluation } from '../api/create-evaluation';
import { evaluationKeys } from '../api/evaluation-keys';
import { useEvaluation } from '../api/get-evaluation';
import { useModelEvaluations } from '../api/get-model-evaluations';
import { useEvaluationT } from '../i18n';
import { EvaluationResults } from './evaluation-results';

type Split = (typeof EVALUATION_SPLITS)[number];
const STATUS_COLOR: Record<Evaluation['status'], string> = { queued: 'gray', running: 'blue', completed: 'green', failed: 'red', cancelled: 'yellow' };

/**
 * The model page's Evaluate tab: choose a dataset and split, follow the job live (progress, cancel),
 * then the scores and the images the model gets wrong; earlier evaluations stay listed.
 */
export function EvaluatePanel({ model, signedIn }: { model: Model; signedIn: boolean }) {
  const { t } = useEvaluationT();
  const qc = useQueryClient();
  const classify = model.task === 'classify';
  const hasOnnx = model.files.some((f) => f.kind === 'onnx');
  const datasets = useQuery({
    queryKey: ['datasets', 'for-evaluation', classify],
    queryFn: ({ signal }) => getDatasets({ task: classify ? 'classify' : undefined }, { limit: 100, signal }),
    enabled: signedIn,
  });
  const ready = useMemo(
    () => (datasets.data?.results ?? []).filter((d) => d.status === 'Ready' && (classify ? d.task === 'classify' : d.task !== 'classify')),
    [datasets.data, classify],
  );
  const [datasetId, setDatasetId] = useState<string | null>(null);
  const [split, setSplit] = useState<Split>('val');
  const list = useModelEvaluations(model.id);
  const [selected, setSelected] = useState<string | null>(null);
  const shownId = selected ?? list.data?.[0]?.id ?? null;
  const shown = useEvaluation(shownId);
  const create = useCreateEvaluation(model.id);
  const cancel = useCancelEvaluation(model.id);

  useEffect(() => {
    if (!datasetId && ready.length) setDatasetId(ready[0]!.id);
  }, [ready, datasetId]);

  // Progress and status arrive on the model's topic.
  useTopic(signedIn ? topics.model(model.id) : null, (message) => {
    if (message.event === 'evaluation.progress' && message.data) {
      const { id, done, total } = message.data;
      qc.setQueryData<Evaluation>(evaluationKeys.one(id), (e) => (e ? { ...e, status: 'running', progress: { done, total } } : e));
    } else if (message.event === 'evaluation.updated' && message.data) {
      void qc.invalidateQueries({ queryKey: evaluationKeys.one(message.data.id) });
      void qc.invalidateQueries({ queryKey: evaluationKeys.ofModel(model.id) });
    }
  });

  const start = () => {
    if (!datasetId) return;
    create.mutate(
      { datasetId, split },
      {
        onSuccess: (e) => {
          setSelected(e.id);
          if (e.reused) notifications.success(t('reused'));
        },
        onError: notifyError,
      },
    );
  };

  const e = shown.data;
  const active = e ? evaluationActive(e.status) : false;
  const pct = e && e.progress.total ? Math.round((100 * e.progress.done) / e.progress.total) : 0;

  return (
    <Stack gap="lg" data-testid="evaluate-panel">
      <Card withBorder radius="md" padding="lg" component="section" aria-label={t('title')}>
        <Stack gap="sm">
          <Title order={3}>{t('title')}</Title>
          <Text size="sm" c="dimmed">
            {t('intro')}
          </Text>
          {!signedIn ? (
            <Text size="sm">{t('signIn')}</Text>
          ) : !hasOnnx ? (
            <Alert color="yellow" variant="light" data-testid="eval-no-onnx">
              {t('noOnnx')}
            </Alert>
          ) : (
            <Group align="flex-end" gap="sm" wrap="wrap">
              <Select
                label={t('dataset')}
                placeholder={t('datasetPlaceholder')}
                data={ready.map((d) => ({ value: d.id, label: d.meta.name }))}
                value={datasetId}
                onChange={setDatasetId}
                w={{ base: '100%', sm: 280 }}
                nothingFoundMessage={t('noDatasets', { task: model.task ?? 'detect' })}
                data-testid="eval-dataset"
              />
              <Stack gap={4}>
                <Text size="sm" fw={500}>
                  {t('split')}
                </Text>
                <SegmentedControl
                  value={split}
                  onChange={(v) => setSplit(v as Split)}
                  data={EVALUATION_SPLITS.map((s) => ({ value: s, label: t(`splits.${s}`) }))}
                  data-testid="eval-split"
                />
              </Stack>
              <Button leftSection={<IconPlayerPlay size={16} />} onClick={start} loading={create.isPending} disabled={!datasetId} data-testid="eval-start">
                {t('start')}
              </Button>
            </Group>
          )}
          {signedIn && hasOnnx && datasets.isSuccess && ready.length === 0 && (
            <Text size="sm" c="dimmed">
              {t('noDatasets', { task: model.task ?? 'detect' })}
            </Text>
          )}
        </Stack>
      </Card>

      {e && (
        <Card withBorder radius="md" padding="lg" data-testid="eval-current" data-status={e.status}>
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="xs" wrap="wrap">
                <Text fw={600}>{t('historyRow', { dataset: e.dataset.name, split: t(`splits.${e.split}`) })}</Text>
                <Badge color={STATUS_COLOR[e.status]} variant="light" data-testid="eval-status">
                  {t(`status.${e.status}`)}
                </Badge>
              </Group>
              {active && (
                <Button
                  size="xs"
                  variant="default"
                  color="red"
                  leftSection={<IconPlayerStop size={14} />}
                  loading={cancel.isPending}
                  onClick={() => cancel.mutate(e.id, { onSuccess: () => notifications.success(t('cancelled')), onError: notifyError })}
                  data-testid="eval-cancel"
                >
                  {t('cancel')}
                </Button>
              )}
            </Group>
            {active && (
              <Stack gap={4}>
                <Progress
                  value={pct}
                  animated
                  striped
                  aria-label={t('progress', { done: e.progress.done, total: e.progress.total })}
                  data-testid="eval-progress"
                />
                <Text size="xs" c="dimmed">
                  {t('progress', { done: e.progress.done, total: e.progress.total })}
                </Text>
              </Stack>
            )}
            {e.status === 'failed' && (
              <Alert color="red" variant="light">
                {t('failed', { error: e.error ?? '' })}
              </Alert>
            )}
            {e.status === 'completed' && <EvaluationResults evaluation={e} task={model.task ?? 'detect'} />}
          </Stack>
        </Card>
      )}

      {(list.data?.length ?? 0) > 1 && (
        <Card withBorder radius="md" padding="lg" component="section" aria-label={t('history')}>
          <Title order={4} mb="sm">
            {t('history')}
          </Title>
          <Table.ScrollContainer minWidth={420}>
            <Table highlightOnHover data-testid="eval-history">
              <Table.Tbody>
                {list.data!.map((row) => (
                  <Table.Tr key={row.id} bg={row.id === shownId ? 'var(--mantine-primary-color-light)' : undefined}>
                    <Table.Td>
                      <UnstyledButton onClick={() => setSelected(row.id)} fw={row.id === shownId ? 700 : 400}>
                        {t('historyRow', { dataset: row.dataset.name, split: t(`splits.${row.split}`) })}
                      </UnstyledButton>
                    </Table.Td>
                    <Table.Td>
                      <Badge color={STATUS_COLOR[row.status]} variant="light">
                        {t(`status.${row.status}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>{row.headline ? t(`headline.${row.headline.name}`, { value: row.headline.value.toFixed(3) }) : ''}</Table.Td>
                    <Table.Td c="dimmed">{formatDateTime(row.created)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Card>
      )}
    </Stack>
  );
}
