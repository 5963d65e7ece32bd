import { Anchor, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useCallback, useMemo, useState } from 'react';
import { analyticsCsvUrl, useAnalytics, useAnalyticsTop } from '../api/get-analytics';
import { useAdminT } from '../i18n';
import { EChart } from '../../../components/echart';

const RANGES = { '30': 30, '90': 90, '365': 365 } as const;
type Range = keyof typeof RANGES;

/** Whole UTC days: the range ends with today (tomorrow 00:00 UTC, exclusive). */
function window(days: number) {
  const now = new Date();
  const to = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  return { from: new Date(to.getTime() - days * 86_400_000).toISOString(), to: to.toISOString() };
}

const grid = { left: 40, right: 16, top: 40, bottom: 28, containLabel: true };

/** Events of spec §1 over time per name, active users, sign-ups, top models and datasets by inference. */
export function AnalyticsSection() {
  const { t } = useAdminT();
  const [range, setRange] = useState<Range>('30');
  const [interval, setInterval] = useState<'day' | 'week'>('day');
  const { from, to } = useMemo(() => window(RANGES[range]), [range]);
  const data = useAnalytics(from, to, interval).data;
  const top = useAnalyticsTop(from, to).data;

  const eventName = useCallback((name: string) => t(`analytics.event.${name}`, { defaultValue: name }), [t]);
  const events = useMemo(
    () => ({
      aria: { enabled: true },
      tooltip: { trigger: 'axis', confine: true },
      legend: { type: 'scroll', top: 0 },
      grid,
      xAxis: { type: 'category', data: data?.buckets ?? [] },
      yAxis: { type: 'value', minInterval: 1 },
      // Readable names in the legend and tooltip ("Datasets created", not create_dataset); an unknown event keeps its name.
      series: (data?.series ?? []).map((s) => ({ name: eventName(s.name), type: 'line', showSymbol: false, data: s.counts })),
    }),
    [data, eventName],
  );
  const people = useMemo(
    () => ({
      aria: { enabled: true },
      tooltip: { trigger: 'axis', confine: true },
      legend: { top: 0 },
      grid,
      xAxis: { type: 'category', data: data?.buckets ?? [] },
      yAxis: { type: 'value', minInterval: 1 },
      series: [
        { name: t('analytics.activeUsers'), type: 'line', showSymbol: false, data: data?.activeUsers ?? [] },
        { name: t('analytics.signUps'), type: 'bar', data: data?.signUps ?? [] },
      ],
    }),
    [data, t],
  );

  return (
    <Stack gap="lg" data-testid="admin-analytics">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            size="xs"
            value={range}
            onChange={(v) => setRange(v as Range)}
            data={(Object.keys(RANGES) as Range[]).map((r) => ({ value: r, label: t(`analytics.range.${r}`) }))}
            aria-label={t('analytics.rangeLabel')}
          />
          <SegmentedControl
            size="xs"
            value={interval}
            onChange={(v) => setInterval(v as 'day' | 'week')}
            data={[
              { value: 'day', label: t('analytics.byDay') },
              { value: 'week', label: t('analytics.byWeek') },
            ]}
            aria-label={t('analytics.intervalLabel')}
          />
        </Group>
        <Anchor href={analyticsCsvUrl(from, to, interval)} download size="sm">
          <Group gap={4}>
            <IconDownload size={16} />
            {t('exportCsv')}
          </Group>
        </Anchor>
      </Group>
      <Paper withBorder p="md" radius="md">
        <Title order={2} fz="md" mb="sm">
          {t('analytics.eventsTitle')}
        </Title>
        <EChart option={events} label={t('analytics.eventsTitle')} testId="chart-events" height={320} />
      </Paper>
      <Paper withBorder p="md" radius="md">
        <Title order={2} fz="md" mb="sm">
          {t('analytics.peopleTitle')}
        </Title>
        <EChart option={people} label={t('analytics.peopleTitle')} testId="chart-people" height={280} />
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <TopTable title={t('analytics.totals')} rows={(data?.totals ?? []).slice(0, 10).map((r) => ({ key: r.name, label: eventName(r.name), n: r.count }))} />
        <TopTable title={t('analytics.topModels')} rows={(top?.models ?? []).map((r) => ({ key: r.id, label: r.name ?? r.id, n: r.calls }))} />
        <TopTable title={t('analytics.topDatasets')} rows={(top?.datasets ?? []).map((r) => ({ key: r.id, label: r.name ?? r.id, n: r.calls }))} />
      </SimpleGrid>
    </Stack>
  );
}

function TopTable({ title, rows }: { title: string; rows: Array<{ key: string; label: string; n: number }> }) {
  const { t } = useAdminT();
  return (
    <Paper withBorder p="md" radius="md">
      <Title order={3} fz="sm" mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('analytics.none')}
        </Text>
      ) : (
        <Table verticalSpacing={4} fz="sm">
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.key}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.label}</Table.Td>
                <Table.Td ta="right">{r.n.toLocaleString()}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Paper>
  );
}
