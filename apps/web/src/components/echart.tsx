import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Skeleton, useComputedColorScheme } from '@mantine/core';
import type { EChartsCoreOption, EChartsType } from 'echarts/core';
import { themedChart } from '../lib/chart-theme';

/**
 * An echarts chart whose library loads on first use (lib/echarts-bar), so pages without charts and
 * the startup bundle never pay for it. `label` names the chart for assistive technology; give the
 * numbers as a table next to it as well.
 */
export function EChart({ option: raw, height = 320, label, testId }: { option: EChartsCoreOption; height?: number; label: string; testId?: string }) {
  const scheme = useComputedColorScheme('light');
  const option = useMemo(() => themedChart(raw, scheme), [raw, scheme]);
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);
  const latest = useRef(option);
  const [ready, setReady] = useState(false);
  latest.current = option;

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    void import('../lib/echarts-bar').then(({ init }) => {
      if (disposed || !ref.current) return;
      chart.current = init(ref.current, undefined, { renderer: 'svg' });
      chart.current.setOption(latest.current);
      setReady(true);
      observer = new ResizeObserver(() => chart.current?.resize());
      observer.observe(ref.current);
    });
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);

  return (
    <Box pos="relative" h={height}>
      {!ready && <Skeleton pos="absolute" inset={0} h={height} />}
      <div ref={ref} role="img" aria-label={label} data-testid={testId} data-ready={ready || undefined} style={{ width: '100%', height }} />
    </Box>
  );
}
