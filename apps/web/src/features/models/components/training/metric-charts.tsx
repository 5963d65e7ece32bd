import { useMemo } from 'react';
import { Paper, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ZoomChart } from '../../../../components/zoom-chart';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import type { EpochMetrics } from '../../api/training-metrics';
import { groupMetrics, lineChartOption, type MetricGroup } from './metric-groups';

function GroupChart({ group, bestEpoch }: { group: MetricGroup; bestEpoch: number | null }) {
  const { t } = useTranslation(TRAINING_NS);
  const title = t(`charts.groups.${group.id}`);
  const option = useMemo(
    () =>
      lineChartOption({
        series: group.series.map((s) => ({ name: s.key, points: s.points })),
        markEpoch: bestEpoch === null ? null : bestEpoch + 1,
        markLabel: t('charts.best'),
        scaleFromZero: group.id !== 'loss',
      }),
    [group, bestEpoch, t],
  );
  const last = group.series.map((s) => s.points.at(-1)?.[0] ?? 0).reduce((a, b) => Math.max(a, b), 0);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="metric-chart" data-group={group.id} data-epochs={last}>
      <Text fw={600} size="sm" mb={4}>
        {title}
      </Text>
      <ZoomChart option={option} height={240} aria-label={t('charts.aria', { title, epochs: last })} />
    </Paper>
  );
}

/** One chart per metric group (losses, precision, recall, mAP50, mAP50-95, accuracy). */
export function MetricCharts({ rows, bestEpoch = null }: { rows: EpochMetrics[]; bestEpoch?: number | null }) {
  const groups = useMemo(() => groupMetrics(rows), [rows]);
  if (!groups.length) return null;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" data-testid="metric-charts">
      {groups.map((g) => (
        <GroupChart key={g.id} group={g} bestEpoch={bestEpoch} />
      ))}
    </SimpleGrid>
  );
}
