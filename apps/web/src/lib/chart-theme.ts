import type { EChartsCoreOption } from 'echarts/core';

export type ChartScheme = 'light' | 'dark';

/**
 * Chart text, axis and grid colours per color scheme. Text meets WCAG AA (4.5:1) on the surface
 * charts sit on (`--app-surface`: white in light, Mantine dark-7 in dark); gridlines stay quiet.
 */
export const CHART_COLORS: Record<ChartScheme, { text: string; axis: string; grid: string; surface: string }> = {
  light: { text: '#343a40', axis: '#868e96', grid: '#e9ecef', surface: '#ffffff' },
  dark: { text: '#c9c9c9', axis: '#828282', grid: '#3b3b3b', surface: '#242424' },
};

type Axis = Record<string, unknown>;

function axisOf(axis: Axis, c: (typeof CHART_COLORS)[ChartScheme]): Axis {
  const label = (axis.axisLabel as Record<string, unknown> | undefined) ?? {};
  const split = (axis.splitLine as Record<string, unknown> | undefined) ?? {};
  return {
    ...axis,
    axisLabel: { color: c.text, ...label },
    nameTextStyle: { color: c.text, ...((axis.nameTextStyle as Record<string, unknown> | undefined) ?? {}) },
    axisLine: { ...((axis.axisLine as Record<string, unknown> | undefined) ?? {}), lineStyle: { color: c.axis } },
    splitLine: { ...split, lineStyle: { color: c.grid, ...((split.lineStyle as Record<string, unknown> | undefined) ?? {}) } },
  };
}

const axes = (value: unknown, c: (typeof CHART_COLORS)[ChartScheme]) =>
  value === undefined ? undefined : Array.isArray(value) ? value.map((a: Axis) => axisOf(a, c)) : axisOf(value as Axis, c);

/** The option with the scheme's text, legend, axis and gridline colours (colours the option sets itself win). */
export function themedChart(option: EChartsCoreOption, scheme: ChartScheme): EChartsCoreOption {
  const c = CHART_COLORS[scheme];
  const out: EChartsCoreOption = { ...option, textStyle: { color: c.text, ...((option.textStyle as object | undefined) ?? {}) } };
  if (option.legend && typeof option.legend === 'object' && !Array.isArray(option.legend)) {
    const legend = option.legend as Record<string, unknown>;
    out.legend = {
      ...legend,
      textStyle: { color: c.text, ...((legend.textStyle as object | undefined) ?? {}) },
      pageTextStyle: { color: c.text },
      pageIconColor: c.text,
      pageIconInactiveColor: c.axis,
      inactiveColor: c.axis,
    };
  }
  if (option.xAxis !== undefined) out.xAxis = axes(option.xAxis, c);
  if (option.yAxis !== undefined) out.yAxis = axes(option.yAxis, c);
  return out;
}

/** WCAG relative-luminance contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const lum = (hex: string) => {
    const [r, g, bl] = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}
