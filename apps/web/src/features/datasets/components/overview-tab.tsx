import { useMemo, useState } from 'react';
import { Card, Grid, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { Dataset, HubDatasetStats } from '@sightline/contracts';
import { EChart } from '../../../components/echart';
import { useDatasetsT } from '../i18n';

type SplitName = 'train' | 'val' | 'test';
const SPLITS: SplitName[] = ['train', 'val', 'test'];
const SPLIT_COLORS: Record<SplitName, string> = { train: '#1a64f3', val: '#12b886', test: '#fd7e14' };

/** `HUBDatasetStats` of the dataset (`dataset.splitStats`, typed by the contract); null before processing. */
export function readHubStats(dataset: Dataset): HubDatasetStats | null {
  return dataset.splitStats;
}

function StatCard({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz={26} fw={700} lh={1.3}>
        {value}
      </Text>
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Paper>
  );
}

/** Per-split and per-class statistics (images, instances, unlabelled), charted with echarts loaded on demand. */
export function OverviewTab({ dataset }: { dataset: Dataset }) {
  const { t } = useDatasetsT();
  const hub = readHubStats(dataset);
  const [measure, setMeasure] = useState<'instances' | 'images'>(dataset.task === 'classify' ? 'images' : 'instances');
  const splits = SPLITS.filter((s) => hub?.[s]);
  const names = hub?.names ?? dataset.stats?.classes ?? [];

  const totals = useMemo(() => {
    let images = 0;
    let instances = 0;
    let unlabelled = 0;
    for (const s of SPLITS) {
      const st = hub?.[s];
      if (!st) continue;
      images += st.image_stats.total;
      instances += st.instance_stats.total;
      unlabelled += st.image_stats.unlabelled;
    }
    return { images, instances, unlabelled };
  }, [hub]);

  const perClass = (split: SplitName, cls: number) => {
    const st = hub?.[split];
    if (!st) return 0;
    return (measure === 'instances' ? st.instance_stats.per_class[cls] : st.image_stats.per_class[cls]) ?? 0;
  };

  const splitOption = useMemo(
    () => ({
      aria: { enabled: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { bottom: 0 },
      grid: { left: 8, right: 16, top: 16, bottom: 36, containLabel: true },
      xAxis: { type: 'category', data: splits.map((s) => t(`splits.${s}`)) },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        {
          name: t('overview.labelled'),
          type: 'bar',
          stack: 'images',
          barMaxWidth: 56,
          itemStyle: { color: '#1a64f3' },
          data: splits.map((s) => hub![s]!.image_stats.total - hub![s]!.image_stats.unlabelled),
        },
        {
          name: t('overview.unlabelled'),
          type: 'bar',
          stack: 'images',
          barMaxWidth: 56,
          itemStyle: { color: '#adb5bd' },
          data: splits.map((s) => hub![s]!.image_stats.unlabelled),
        },
      ],
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [hub, t],
  );

  const classOption = useMemo(
    () => ({
      aria: { enabled: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      legend: { bottom: 0 },
      grid: { left: 8, right: 24, top: 8, bottom: 36, containLabel: true },
      xAxis: { type: 'value', minInterval: 1 },
      yAxis: { type: 'category', inverse: true, data: names, axisLabel: { width: 140, overflow: 'truncate' } },
      series: splits.map((s) => ({
        name: t(`splits.${s}`),
        type: 'bar',
        stack: 'classes',
        barMaxWidth: 28,
        itemStyle: { color: SPLIT_COLORS[s] },
        data: names.map((_, cls) => perClass(s, cls)),
      })),
    }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [hub, measure, t],
  );

  if (!hub || splits.length === 0) {
    return (
      <Text c="dimmed" ta="center" py="xl">
        {t('overview.none')}
      </Text>
    );
  }

  const classChartHeight = Math.max(220, names.length * (splits.length > 1 ? 34 : 26) + 60);
  return (
    <Stack gap="lg" data-testid="overview">
      <SimpleGrid cols={{ base: 2, md: 4 }}>
        <StatCard
          label={t('overview.images')}
          value={totals.images.toLocaleString()}
          hint={splits.map((s) => `${t(`splits.${s}`)} ${hub[s]!.image_stats.total.toLocaleString()}`).join(' · ')}
        />
        <StatCard label={t('overview.classes')} value={names.length.toLocaleString()} />
        <StatCard
          label={dataset.task === 'classify' ? t('overview.labelledImages') : t('overview.instances')}
          value={totals.instances.toLocaleString()}
          hint={totals.images ? t('overview.perImage', { n: (totals.instances / totals.images).toFixed(1) }) : undefined}
        />
        <StatCard
          label={t('overview.unlabelledImages')}
          value={totals.unlabelled.toLocaleString()}
          hint={totals.images ? t('overview.percent', { n: ((totals.unlabelled / totals.images) * 100).toFixed(1) }) : undefined}
        />
      </SimpleGrid>
      <Grid>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Card withBorder radius="md" h="100%">
            <Title order={3} fz="md" mb="sm">
              {t('overview.perSplit')}
            </Title>
            <EChart option={splitOption} height={280} label={t('overview.perSplitLabel')} testId="split-chart" />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Card withBorder radius="md" h="100%">
            <Group justify="space-between" mb="sm" wrap="wrap">
              <Title order={3} fz="md">
                {t('overview.perClass')}
              </Title>
              {dataset.task !== 'classify' && (
                <SegmentedControl
                  size="xs"
                  value={measure}
                  onChange={(v) => setMeasure(v as 'instances' | 'images')}
                  data={[
                    { value: 'instances', label: t('overview.instances') },
                    { value: 'images', label: t('overview.imagesWithClass') },
                  ]}
                  aria-label={t('overview.measure')}
                />
              )}
            </Group>
            <EChart
              option={classOption}
              height={classChartHeight}
              label={t('overview.perClassLabel', { measure: t(`overview.${measure}`) })}
              testId="class-chart"
            />
          </Card>
        </Grid.Col>
      </Grid>
      <Card withBorder radius="md" p={0}>
        <Table.ScrollContainer minWidth={480}>
          <Table striped highlightOnHover verticalSpacing="xs" data-testid="class-table">
            <Table.Caption>{t('overview.tableCaption', { measure: t(`overview.${measure}`) })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('overview.class')}</Table.Th>
                {splits.map((s) => (
                  <Table.Th key={s} ta="right">
                    {t(`splits.${s}`)}
                  </Table.Th>
                ))}
                <Table.Th ta="right">{t('overview.total')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {names.map((name, cls) => (
                <Table.Tr key={cls}>
                  <Table.Td>
                    <Text size="sm" span c="dimmed" mr={6}>
                      {cls}
                    </Text>
                    {name}
                  </Table.Td>
                  {splits.map((s) => (
                    <Table.Td key={s} ta="right">
                      {perClass(s, cls).toLocaleString()}
                    </Table.Td>
                  ))}
                  <Table.Td ta="right" fw={600}>
                    {splits.reduce((n, s) => n + perClass(s, cls), 0).toLocaleString()}
                  </Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td c="dimmed">{t('overview.unlabelledImages')}</Table.Td>
                {splits.map((s) => (
                  <Table.Td key={s} ta="right" c="dimmed">
                    {hub[s]!.image_stats.unlabelled.toLocaleString()}
                  </Table.Td>
                ))}
                <Table.Td ta="right" c="dimmed">
                  {totals.unlabelled.toLocaleString()}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Card>
    </Stack>
  );
}
