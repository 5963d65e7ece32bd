import { useMemo, useState } from 'react';
import { Chip, Group, MultiSelect, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
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

export type CompareGrouping = 'model' | 'version';

/** A group of the compare charts: one colour and one chip for its models. */
export interface CompareGroup {
  key: string;
  /** What the chip says: the model's name, or the dataset version (ADR 0038) the models trained on. */
  label:
    { kind: 'model'; name: string } | { kind: 'version'; dataset: string; version: number } | { kind: 'noVersion'; dataset: string } | { kind: 'noDataset' };
  color: string;
  modelIds: string[];
}

/**
 * The chips and colours of the compare charts: one group per model, or one per dataset version the
 * models trained on (models carry their dataset version, ADR 0038), in the models' order; a model
 * without a recorded version groups with its dataset's other unversioned runs, or with no dataset.
 */
export function compareGroups(models: Array<Pick<Model, 'id' | 'slug' | 'meta' | 'dataset'>>, grouping: CompareGrouping): CompareGroup[] {
  const names = seriesNames(models);
  const groups = new Map<string, Omit<CompareGroup, 'color'>>();
  for (const m of models) {
    const d = m.dataset;
    const key = grouping === 'model' ? m.id : d.id ? `${d.id}:${d.version ?? ''}` : '';
    const label: CompareGroup['label'] =
      grouping === 'model'
        ? { kind: 'model', name: names.get(m.id)! }
        : !d.id
          ? { kind: 'noDataset' }
          : d.version === null
            ? { kind: 'noVersion', dataset: d.name ?? d.id }
            : { kind: 'version', dataset: d.name ?? d.id, version: d.version };
    const g = groups.get(key) ?? { key, label, modelIds: [] };
    g.modelIds.push(m.id);
    groups.set(key, g);
  }
  return [...groups.values()].map((g, i) => ({ ...g, color: COLORS[i % COLORS.length]! }));
}

/**
 * A project's models on shared charts, one chart per metric, one line per model. Grouped by model
 * (a colour and a chip each) or by the dataset version they trained on (one colour and one chip per
 * version, ADR 0038). Models can be hidden and shown with the chips or the chart legends (kept in
 * step across charts).
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
  const [grouping, setGrouping] = useState<CompareGrouping>('model');
  const groups = useMemo(() => compareGroups(reported, grouping), [reported, grouping]);
  const groupLabel = (g: CompareGroup) =>
    g.label.kind === 'model'
      ? g.label.name
      : g.label.kind === 'version'
        ? t('compare.versionGroup', { dataset: g.label.dataset, version: g.label.version, count: g.modelIds.length })
        : g.label.kind === 'noVersion'
          ? t('compare.noVersionGroup', { dataset: g.label.dataset, count: g.modelIds.length })
          : t('compare.noDatasetGroup', { count: g.modelIds.length });
  const names = useMemo(() => seriesNames(reported), [reported]);
  const colors = useMemo(() => new Map(groups.flatMap((g) => g.modelIds.map((id) => [id, g.color] as const))), [groups]);
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
        <Stack gap={2}>
          <Text size="sm" fw={500} id={`compare-group-${projectId}`}>
            {t('compare.groupBy')}
          </Text>
          <SegmentedControl
            size="xs"
            aria-labelledby={`compare-group-${projectId}`}
            value={grouping}
            onChange={(v) => setGrouping(v as CompareGrouping)}
            data={[
              { value: 'model', label: t('compare.groupModel') },
              { value: 'version', label: t('compare.groupVersion') },
            ]}
            data-testid="compare-group-by"
          />
        </Stack>
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
      <Group gap={6} role="group" aria-label={grouping === 'model' ? t('compare.models') : t('compare.versions')}>
        {groups.map((g) => (
          <Chip
            key={g.key}
            size="xs"
            checked={g.modelIds.some((id) => !hidden.has(id))}
            color={g.color}
            variant="outline"
            onChange={(on) =>
              setHidden((h) => {
                const next = new Set(h);
                for (const id of g.modelIds) {
                  if (on) next.delete(id);
                  else next.add(id);
                }
                return next;
              })
            }
            data-testid="compare-model-toggle"
            data-models={g.modelIds.length}
          >
            {groupLabel(g)}
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
