import { useMemo, useState } from 'react';
import { Chip, Group, MultiSelect, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { modelStatus, type Model } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { ZoomChart } from '../../../../components/zoom-chart';
import { TRAINING_NS } from '../../../../lib/i18n-training';
import { trainingMetricsQueryOptions, type EpochMetrics } from '../../api/training-metrics';
import { comparableKeys, lineChartOption } from '../training/metric-groups';

/** Distinct line colours, one per model in list order. */
const COLORS = ['#228be6', '#fa5252', '#40c057', '#fab005', '#7950f2', '#15aabf', '#fd7e14', '#e64980', '#82c91e', '#4c6ef5', '#868e96', '#12b886'];
const DEFAULT_CHARTS = 4;
const LIVE_POLL_MS = 30_000;

const metricTitle = (key: string) => key.replace(/^metrics\//, '');
const NO_ROWS: EpochMetrics[] = [];
/** Module-level, so TanStack Query keeps the combined array stable while no query changed. */
const combineRows = (results: Array<{ data?: EpochMetrics[] }>) => results.map((r) => r.data ?? NO_ROWS);

/** Legend names must be unique: a repeated model name gets its slug. */
export function seriesNames(models: Array<Pick<Model, 'id' | 'slug' | 'meta'>>): Map<string, string> {
  const counts = new Map<string, number>();
  for (const m of models) counts.set(m.meta.name, (counts.get(m.meta.name) ?? 0) + 1);
  return new Map(models.map((m) => [m.id, (counts.get(m.meta.name) ?? 0) > 1 ? `${m.meta.name} (${m.slug})` : m.meta.name]));
}

/**
 * A project's models on shared charts, one chart per metric, one line per model. Models can be
 * hidden and shown with the chips or the chart legends (kept in step across charts).
 */
export function ProjectCompareCharts({ projectId, models }: { projectId: string; models: Model[] }) {
  const { t } = useTranslation(TRAINING_NS);
  const reported = useMemo(() => models.filter((m) => m.metrics.epochs > 0 || modelStatus(m.dates) === 'Training'), [models]);
  const rows = useQueries({
    queries: reported.map((m) => ({
      ...trainingMetricsQueryOptions(m.id),
      refetchInterval: modelStatus(m.dates) === 'Training' ? LIVE_POLL_MS : (false as const),
    })),
    combine: combineRows,
  });
  const names = useMemo(() => seriesNames(reported), [reported]);
  const colors = useMemo(() => new Map(reported.map((m, i) => [m.id, COLORS[i % COLORS.length]!])), [reported]);
  const keys = useMemo(() => comparableKeys(rows), [rows]);
  const [picked, setPicked] = useState<string[] | null>(null);
  const [hidden, setHidden] = useState<Set<string>>(new Set());
  const shownKeys = useMemo(() => (picked ?? keys.slice(0, DEFAULT_CHARTS)).filter((k) => keys.includes(k)), [picked, keys]);

  const selected = useMemo(() => Object.fromEntries(reported.map((m) => [names.get(m.id)!, !hidden.has(m.id)])), [reported, names, hidden]);
  const onLegendChange = (sel: Record<string, boolean>) => setHidden(new Set(reported.filter((m) => sel[names.get(m.id)!] === false).map((m) => m.id)));

  const options = useMemo(
    () =>
      shownKeys.map((key) => ({
        key,
        option: lineChartOption({
          series: reported.map((m, i) => ({
            name: names.get(m.id)!,
            color: colors.get(m.id),
            points: (rows[i] ?? NO_ROWS)
              .filter((r) => typeof r[key] === 'number' && Number.isFinite(r[key]))
              .map((r) => [r.epoch + 1, r[key] as number] as [number, number]),
          })),
          selected,
          scaleFromZero: !key.includes('loss'),
        }),
      })),
    [shownKeys, reported, names, colors, selected, rows],
  );

  if (!reported.length) {
    return (
      <Text size="sm" c="dimmed" data-testid="compare-empty" data-project={projectId}>
        {t('compare.empty')}
      </Text>
    );
  }

  return (
    <Stack gap="sm" data-testid="project-compare" data-project={projectId}>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Title order={3} fz="md">
          {t('compare.title')}
        </Title>
        <MultiSelect
          label={t('compare.metrics')}
          data={keys.map((k) => ({ value: k, label: metricTitle(k) }))}
          value={shownKeys}
          onChange={setPicked}
          maw={520}
          style={{ flex: 1, minWidth: 240 }}
          clearable={false}
        />
      </Group>
      <Group gap={6} role="group" aria-label={t('compare.models')}>
        {reported.map((m) => (
          <Chip
            key={m.id}
            size="xs"
            checked={!hidden.has(m.id)}
            color={colors.get(m.id)}
            variant="outline"
            onChange={(on) =>
              setHidden((h) => {
                const next = new Set(h);
                if (on) next.delete(m.id);
                else next.add(m.id);
                return next;
              })
            }
            data-testid="compare-model-toggle"
          >
            {names.get(m.id)}
          </Chip>
        ))}
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {options.map(({ key, option }) => (
          <Paper key={key} withBorder radius="md" p="sm" data-testid="compare-chart" data-metric={key}>
            <Text fw={600} size="sm" mb={4}>
              {metricTitle(key)}
            </Text>
            <ZoomChart
              option={option}
              height={240}
              onLegendChange={onLegendChange}
              aria-label={t('compare.chartAria', { metric: metricTitle(key), count: reported.length })}
            />
          </Paper>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
