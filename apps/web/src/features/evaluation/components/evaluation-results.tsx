import { useMemo, useState } from 'react';
import { Alert, Group, Paper, SegmentedControl, SimpleGrid, Stack, Switch, Table, Text, Title, useComputedColorScheme } from '@mantine/core';
import type { ClassificationEvalResult, DetectionEvalResult, EvalMetrics, Evaluation } from '@sightline/contracts';
import { ZoomChart } from '../../../components/zoom-chart';
import { useEvaluationT } from '../i18n';
import { confusionOption, curveOption, curveSeries } from './eval-charts';
import { EvaluationMistakes } from './evaluation-mistakes';

const fmt = (v: number | null | undefined) => (v === null || v === undefined ? '—' : v.toFixed(3));
type Geometry = 'box' | 'mask' | 'pose';

export const isClassification = (r: Evaluation['result']): r is ClassificationEvalResult => (r as { task?: string } | null)?.task === 'classify';
export const asDetection = (r: Evaluation['result']) => (r && !isClassification(r) ? (r as unknown as DetectionEvalResult) : null);

function Stat({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid={testId}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </Paper>
  );
}

function DetectionTable({ metrics, images, instances }: { metrics: EvalMetrics; images: number; instances: number }) {
  const { t } = useEvaluationT();
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped highlightOnHover withTableBorder data-testid="eval-class-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('table.class')}</Table.Th>
            <Table.Th ta="right">{t('table.images')}</Table.Th>
            <Table.Th ta="right">{t('table.instances')}</Table.Th>
            <Table.Th ta="right">{t('table.precision')}</Table.Th>
            <Table.Th ta="right">{t('table.recall')}</Table.Th>
            <Table.Th ta="right">{t('table.mAP50')}</Table.Th>
            <Table.Th ta="right">{t('table.mAP50_95')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          <Table.Tr fw={700}>
            <Table.Td>{t('table.all')}</Table.Td>
            <Table.Td ta="right">{images}</Table.Td>
            <Table.Td ta="right">{instances}</Table.Td>
            <Table.Td ta="right">{fmt(metrics.precision)}</Table.Td>
            <Table.Td ta="right">{fmt(metrics.recall)}</Table.Td>
            <Table.Td ta="right">{fmt(metrics.mAP50)}</Table.Td>
            <Table.Td ta="right">{fmt(metrics.mAP50_95)}</Table.Td>
          </Table.Tr>
          {metrics.perClass.map((c) => (
            <Table.Tr key={c.classId}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td ta="right">{c.images}</Table.Td>
              <Table.Td ta="right">{c.instances}</Table.Td>
              <Table.Td ta="right">{fmt(c.precision)}</Table.Td>
              <Table.Td ta="right">{fmt(c.recall)}</Table.Td>
              <Table.Td ta="right">{fmt(c.mAP50)}</Table.Td>
              <Table.Td ta="right">{fmt(c.mAP50_95)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ClassificationTable({ result }: { result: ClassificationEvalResult }) {
  const { t } = useEvaluationT();
  return (
    <Table.ScrollContainer minWidth={420}>
      <Table striped highlightOnHover withTableBorder data-testid="eval-class-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('table.class')}</Table.Th>
            <Table.Th ta="right">{t('table.images')}</Table.Th>
            <Table.Th ta="right">{t('table.correct')}</Table.Th>
            <Table.Th ta="right">{t('table.precision')}</Table.Th>
            <Table.Th ta="right">{t('table.recall')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {result.perClass.map((c) => (
            <Table.Tr key={c.classId}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td ta="right">{c.images}</Table.Td>
              <Table.Td ta="right">{c.correct}</Table.Td>
              <Table.Td ta="right">{fmt(c.precision)}</Table.Td>
              <Table.Td ta="right">{fmt(c.recall)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ConfusionMatrix({ matrix }: { matrix: DetectionEvalResult['confusionMatrix'] }) {
  const { t } = useEvaluationT();
  const scheme = useComputedColorScheme('light');
  const [normalize, setNormalize] = useState(false);
  const option = useMemo(
    () =>
      confusionOption(matrix, { normalize, predicted: t('confusion.predicted'), truth: t('confusion.true'), background: t('confusion.background'), scheme }),
    [matrix, normalize, scheme, t],
  );
  const n = matrix.names.length;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="eval-confusion">
      <Group justify="space-between" mb={4} wrap="wrap" gap="xs">
        <Text fw={600} size="sm">
          {t('confusion.title')}
        </Text>
        <Switch size="xs" checked={normalize} onChange={(e) => setNormalize(e.currentTarget.checked)} label={t('confusion.normalize')} />
      </Group>
      <Text size="xs" c="dimmed" mb={4}>
        {matrix.conf !== null && matrix.iou !== null ? t('confusion.note', { conf: matrix.conf, iou: matrix.iou }) : t('confusion.noteClassify')}
      </Text>
      <ZoomChart
        option={option}
        height={Math.min(680, Math.max(320, 160 + n * 34))}
        aria-label={t('confusion.aria', { count: matrix.background ? n - 1 : n })}
        data-testid="eval-confusion-chart"
      />
    </Paper>
  );
}

function Curves({ metrics }: { metrics: EvalMetrics }) {
  const { t } = useEvaluationT();
  const c = metrics.curves;
  const charts = useMemo(() => {
    const all = (v: string) => t('curves.all', { value: v });
    const peak = (mean: { y: number[] }) => Math.max(...mean.y);
    return [
      {
        id: 'pr',
        title: t('curves.pr'),
        option: curveOption({
          x: c.x,
          xName: t('curves.recallAxis'),
          yName: t('curves.precisionAxis'),
          series: curveSeries(
            c.pr,
            (v) => t('curves.allMap', { value: v }),
            () => metrics.mAP50,
          ),
        }),
      },
      {
        id: 'f1',
        title: t('curves.f1'),
        option: curveOption({ x: c.x, xName: t('curves.confidenceAxis'), yName: t('curves.f1Axis'), series: curveSeries(c.f1, all, peak) }),
      },
      {
        id: 'precision',
        title: t('curves.precision'),
        option: curveOption({ x: c.x, xName: t('curves.confidenceAxis'), yName: t('curves.precisionAxis'), series: curveSeries(c.precision, all, peak) }),
      },
      {
        id: 'recall',
        title: t('curves.recall'),
        option: curveOption({ x: c.x, xName: t('curves.confidenceAxis'), yName: t('curves.recallAxis'), series: curveSeries(c.recall, all, peak) }),
      },
    ];
  }, [c, metrics.mAP50, t]);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" data-testid="eval-curves">
      {charts.map((chart) => (
        <Paper key={chart.id} withBorder radius="md" p="sm" data-testid="eval-curve" data-curve={chart.id}>
          <Text fw={600} size="sm" mb={4}>
            {chart.title}
          </Text>
          <ZoomChart option={chart.option} height={260} aria-label={t('curves.aria', { title: chart.title })} />
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** A completed evaluation: headline numbers, per class table, confusion matrix, curves and the images it gets wrong. */
export function EvaluationResults({ evaluation, task }: { evaluation: Evaluation; task: string }) {
  const { t } = useEvaluationT();
  const result = evaluation.result;
  const detection = asDetection(result);
  const geometries = detection ? (['box', 'mask', 'pose'] as const).filter((g) => detection[g]) : [];
  const [picked, setPicked] = useState<Geometry>('box');
  const geometry: Geometry = geometries.includes(picked) ? picked : 'box';
  const map = evaluation.classMap;
  if (!result) return null;
  const metrics = detection ? detection[geometry]! : null;
  return (
    <Stack gap="md" data-testid="eval-results">
      {map && map.unmappedDataset.length > 0 && (
        <Alert color="yellow" variant="light" data-testid="eval-unmapped">
          {t('unmappedDataset', { names: map.unmappedDataset.join(', ') })}
          {map.skippedLabels > 0 ? ` ${t('skippedLabels', { count: map.skippedLabels })}` : ''}
        </Alert>
      )}
      {map && map.unmappedModel.length > 0 && (
        <Text size="sm" c="dimmed">
          {t('unmappedModel', { names: map.unmappedModel.slice(0, 20).join(', ') + (map.unmappedModel.length > 20 ? ' …' : '') })}
        </Text>
      )}
      {geometries.length > 1 && (
        <SegmentedControl
          value={geometry}
          onChange={(v) => setPicked(v as Geometry)}
          data={geometries.map((g) => ({ value: g, label: t(`summary.geometry.${g}`) }))}
          style={{ alignSelf: 'flex-start' }}
        />
      )}
      {detection && metrics ? (
        <>
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 6 }} spacing="sm">
            <Stat label={t('summary.images')} value={String(detection.images)} />
            <Stat label={t('summary.instances')} value={String(detection.instances)} />
            <Stat label={t('summary.precision')} value={fmt(metrics.precision)} />
            <Stat label={t('summary.recall')} value={fmt(metrics.recall)} />
            <Stat label={t('summary.mAP50')} value={fmt(metrics.mAP50)} testId="eval-map50" />
            <Stat label={t('summary.mAP50_95')} value={fmt(metrics.mAP50_95)} />
          </SimpleGrid>
          <Title order={4}>{t('table.title')}</Title>
          <DetectionTable metrics={metrics} images={detection.images} instances={detection.instances} />
          <ConfusionMatrix matrix={detection.confusionMatrix} />
          <Title order={4}>{t('curves.title')}</Title>
          <Curves metrics={metrics} />
        </>
      ) : isClassification(result) ? (
        <>
          <SimpleGrid cols={{ base: 3 }} spacing="sm">
            <Stat label={t('summary.images')} value={String(result.images)} />
            <Stat label={t('summary.top1')} value={fmt(result.top1)} testId="eval-top1" />
            <Stat label={t('summary.top5')} value={fmt(result.top5)} />
          </SimpleGrid>
          <Title order={4}>{t('table.title')}</Title>
          <ClassificationTable result={result} />
          <ConfusionMatrix matrix={result.confusionMatrix} />
        </>
      ) : null}
      <EvaluationMistakes evaluation={evaluation} task={task} />
    </Stack>
  );
}
