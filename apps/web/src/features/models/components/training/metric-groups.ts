import type { ChartOption } from '../../../../lib/echarts';

/** Chart groups of the ultralytics metric keys; a key belongs to the first group that matches. */
export const METRIC_GROUPS = [
  { id: 'loss', test: (k: string) => /^(train|val)\/\w*loss$/.test(k) },
  { id: 'precision', test: (k: string) => /^metrics\/precision\(/.test(k) },
  { id: 'recall', test: (k: string) => /^metrics\/recall\(/.test(k) },
  { id: 'mAP50', test: (k: string) => /^metrics\/mAP50\(/.test(k) },
  { id: 'mAP50-95', test: (k: string) => /^metrics\/mAP50-95\(/.test(k) },
  { id: 'accuracy', test: (k: string) => /^metrics\/accuracy/.test(k) },
] as const;
export type MetricGroupId = (typeof METRIC_GROUPS)[number]['id'];

export interface MetricSeries {
  key: string;
  /** [epoch (1-based, as the client prints it), value] */
  points: Array<[number, number]>;
}
export interface MetricGroup {
  id: MetricGroupId;
  series: MetricSeries[];
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function groupOf(key: string): MetricGroupId | null {
  return METRIC_GROUPS.find((g) => g.test(key))?.id ?? null;
}

/** Per-epoch rows → one group per chart, series sorted by key, empty groups left out. */
export function groupMetrics(rows: Array<{ epoch: number } & Record<string, unknown>>): MetricGroup[] {
  const byKey = new Map<string, Array<[number, number]>>();
  for (const row of [...rows].sort((a, b) => a.epoch - b.epoch)) {
    for (const [key, value] of Object.entries(row)) {
      if (key === 'epoch' || !finite(value) || !groupOf(key)) continue;
      if (!byKey.has(key)) byKey.set(key, []);
      byKey.get(key)!.push([row.epoch + 1, value]);
    }
  }
  return METRIC_GROUPS.map((g) => ({
    id: g.id,
    series: [...byKey.entries()]
      .filter(([key]) => groupOf(key) === g.id)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, points]) => ({ key, points })),
  })).filter((g) => g.series.length > 0);
}

/** Keys worth comparing across models: the quality metrics, then validation losses. */
export function comparableKeys(rowsPerModel: Array<Array<Record<string, unknown>>>): string[] {
  const keys = new Set<string>();
  for (const rows of rowsPerModel)
    for (const row of rows)
      for (const [k, v] of Object.entries(row)) if (finite(v) && (k.startsWith('metrics/') || /^val\/\w*loss$/.test(k)) && groupOf(k)) keys.add(k);
  const rank = (k: string) => {
    const order: MetricGroupId[] = ['mAP50-95', 'mAP50', 'accuracy', 'precision', 'recall', 'loss'];
    return order.indexOf(groupOf(k)!) * 10 + (k.includes('(M)') ? 1 : 0);
  };
  return [...keys].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export interface LineChartInput {
  series: Array<{ name: string; points: Array<[number, number]>; color?: string }>;
  yName?: string;
  /** Epoch (1-based) marked with a dashed line, e.g. the best epoch. */
  markEpoch?: number | null;
  markLabel?: string;
  selected?: Record<string, boolean>;
  /** Losses start high: a log axis would hide nothing, but a 0-based axis flattens them. */
  scaleFromZero?: boolean;
}

/** The ECharts option of a metric chart: epochs on x, zoom by wheel/drag and with the slider. */
export function lineChartOption(i: LineChartInput): ChartOption {
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 40, bottom: 64 },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? v.toFixed(4) : String(v)) },
    legend: { type: 'scroll', top: 0, ...(i.selected ? { selected: i.selected } : {}) },
    xAxis: { type: 'value', name: 'epoch', nameLocation: 'middle', nameGap: 24, minInterval: 1, min: 'dataMin', max: 'dataMax' },
    yAxis: { type: 'value', name: i.yName, scale: !i.scaleFromZero },
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, height: 16, bottom: 4, filterMode: 'none' },
    ],
    series: i.series.map((s, index) => ({
      name: s.name,
      type: 'line',
      showSymbol: s.points.length < 40,
      symbolSize: 5,
      data: s.points,
      ...(s.color ? { itemStyle: { color: s.color }, lineStyle: { color: s.color } } : {}),
      ...(index === 0 && i.markEpoch
        ? {
            markLine: {
              silent: true,
              symbol: 'none',
              lineStyle: { type: 'dashed', color: '#868e96' },
              label: { formatter: i.markLabel ?? '' },
              data: [{ xAxis: i.markEpoch }],
            },
          }
        : {}),
    })),
  };
}
