import type { EChartsCoreOption } from 'echarts/core';

export type ChartOption = EChartsCoreOption;

let loading: Promise<typeof import('./echarts-setup')> | null = null;

/** ECharts with the line chart and its components, loaded once on first use. */
export function loadECharts() {
  loading ??= import('./echarts-setup').catch((error: unknown) => {
    loading = null;
    throw error;
  });
  return loading.then((m) => m.echarts);
}
