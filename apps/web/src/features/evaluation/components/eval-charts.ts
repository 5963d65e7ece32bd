import type { EvalConfusionMatrix, EvalCurve } from '@sightline/contracts';
import type { ChartOption } from '../../../lib/echarts';

/** Distinct line colours (the training charts' set), one per class or model in order. */
export const COLORS = ['#228be6', '#fa5252', '#40c057', '#fab005', '#7950f2', '#15aabf', '#fd7e14', '#e64980', '#82c91e', '#4c6ef5', '#868e96', '#12b886'];
/** Per class curves leave blue to the thick mean over classes (ultralytics' plots do the same). */
const CLASS_COLORS = COLORS.filter((c) => c !== '#228be6' && c !== '#4c6ef5');
const MEAN_COLOR = '#1c7ed6';
/** Above this many classes, only the mean curve is drawn at first (the legend shows the rest on demand). */
const MAX_SHOWN_CLASSES = 10;

export interface CurveSeries {
  name: string;
  y: number[];
  color?: string;
  /** The mean over classes: drawn thick, as ultralytics' plots. */
  bold?: boolean;
}

/** Curves on ultralytics' shared grid: PR (x = recall) or F1/P/R against confidence, same look as the training charts. */
export function curveOption(i: { x: number[]; series: CurveSeries[]; xName: string; yName: string }): ChartOption {
  const classes = i.series.filter((s) => !s.bold).length;
  const step = Math.max(1, Math.floor(i.x.length / 200)); // 1000 points per curve are more than a chart can show
  const xs = i.x.filter((_, k) => k % step === 0 || k === i.x.length - 1);
  const pick = (y: number[]) => y.filter((_, k) => k % step === 0 || k === i.x.length - 1);
  return {
    animation: false,
    grid: { left: 48, right: 16, top: 56, bottom: 40 },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => (typeof v === 'number' ? v.toFixed(3) : String(v)) },
    legend: {
      type: 'scroll',
      top: 0,
      ...(classes > MAX_SHOWN_CLASSES ? { selected: Object.fromEntries(i.series.map((s) => [s.name, Boolean(s.bold)])) } : {}),
    },
    xAxis: { type: 'value', name: i.xName, nameLocation: 'middle', nameGap: 24, min: 0, max: 1 },
    yAxis: { type: 'value', name: i.yName, min: 0, max: 1 },
    series: i.series.map((s, index) => {
      const color = s.color ?? COLORS[index % COLORS.length];
      const ys = pick(s.y);
      return {
        name: s.name,
        type: 'line',
        showSymbol: false,
        data: xs.map((x, k) => [x, ys[k] ?? 0]),
        lineStyle: { width: s.bold ? 3 : 1.25, color },
        itemStyle: { color },
        z: s.bold ? 3 : 2,
      };
    }),
  };
}

/** The metrics engine's curves as series: each class thin, the mean ("all classes 0.912") thick. */
export function curveSeries(curves: EvalCurve[], allLabel: (value: string) => string, value: (mean: EvalCurve) => number | null): CurveSeries[] {
  return curves.map((c, index) => {
    if (c.classId !== null) return { name: c.name, y: c.y, color: CLASS_COLORS[index % CLASS_COLORS.length] };
    const v = value(c);
    return { name: allLabel(v === null ? '' : v.toFixed(3)), y: c.y, color: MEAN_COLOR, bold: true };
  });
}

/**
 * The confusion matrix as a heatmap in ultralytics' orientation (rows predicted, columns true;
 * background last). `normalize` divides each column by its sum, as ultralytics' normalised plot.
 */
export function confusionOption(
  cm: EvalConfusionMatrix,
  o: { normalize: boolean; predicted: string; truth: string; background: string; scheme: 'light' | 'dark' },
): ChartOption {
  const names = cm.names.map((n, i) => (cm.background && i === cm.names.length - 1 ? o.background : n));
  const n = names.length;
  const colSums = Array.from({ length: n }, (_, c) => cm.matrix.reduce((s, row) => s + (row[c] ?? 0), 0));
  const cells: Array<[number, number, number]> = [];
  let max = 0;
  for (let p = 0; p < n; p++) {
    for (let t = 0; t < n; t++) {
      const raw = cm.matrix[p]?.[t] ?? 0;
      const v = o.normalize ? (colSums[t] ? raw / colSums[t]! : 0) : raw;
      max = Math.max(max, v);
      // echarts' category y axis runs bottom-up: the first predicted class goes on top.
      cells.push([t, n - 1 - p, o.normalize ? Math.round(v * 100) / 100 : v]);
    }
  }
  // The scale runs light → dark in light mode and dark → light in dark mode: the text takes the far end of it.
  const filled = (v: number) => max > 0 && v / max > (o.scheme === 'light' ? 0.45 : 0.7);
  const textColor = (v: number) => (o.scheme === 'light' ? (filled(v) ? '#ffffff' : '#1a1b1e') : filled(v) ? '#1a1b1e' : '#f1f3f5');
  const data = cells.map((value) => ({ value, label: { color: textColor(value[2]) } }));
  const dense = n > 12;
  return {
    animation: false,
    grid: { left: 8, right: 8, top: 28, bottom: n > 2 ? 60 : 28, containLabel: true },
    tooltip: {
      position: 'top',
      formatter: (p: unknown) => {
        const [t, row, v] = (p as { value: [number, number, number] }).value;
        return `${o.predicted}: ${names[n - 1 - row]}<br/>${o.truth}: ${names[t]}<br/><b>${v}</b>`;
      },
    },
    xAxis: {
      type: 'category',
      data: names,
      name: o.truth,
      nameLocation: 'middle',
      nameGap: n > 2 ? 78 : 30,
      axisLabel: { rotate: n > 2 ? 35 : 0, interval: 0, fontSize: dense ? 9 : 12 },
      splitArea: { show: false },
    },
    yAxis: {
      type: 'category',
      data: [...names].reverse(),
      name: o.predicted,
      nameLocation: 'end',
      axisLabel: { interval: 0, fontSize: dense ? 9 : 12 },
      splitArea: { show: false },
    },
    visualMap: {
      min: 0,
      max: Math.max(max, o.normalize ? 1 : 1),
      show: false,
      inRange: { color: o.scheme === 'dark' ? ['#1f2a38', '#1864ab', '#74c0fc'] : ['#f8f9fa', '#74c0fc', '#1864ab'] },
    },
    series: [
      {
        type: 'heatmap',
        data,
        label: {
          show: n <= 20,
          fontSize: dense ? 9 : 13,
          fontWeight: 600,
          formatter: (p: unknown) => {
            const v = (p as { value: [number, number, number] }).value[2];
            return v === 0 ? '' : String(v);
          },
        },
        emphasis: { itemStyle: { borderColor: '#fab005', borderWidth: 1 } },
        itemStyle: { borderColor: o.scheme === 'dark' ? '#242424' : '#ffffff', borderWidth: 1 },
      },
    ],
  };
}
