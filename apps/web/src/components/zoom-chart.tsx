import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Loader, Center, useComputedColorScheme } from '@mantine/core';
import { themedChart } from '../lib/chart-theme';
import { loadECharts, type ChartOption } from '../lib/echarts';
import { createLogger } from '../lib/logger';

const log = createLogger('zoom-chart');

type Chart = ReturnType<Awaited<ReturnType<typeof loadECharts>>['init']>;

export interface ZoomChartProps {
  option: ChartOption;
  height?: number;
  /** Legend clicks: the new visibility of every series name. */
  onLegendChange?: (selected: Record<string, boolean>) => void;
  'aria-label'?: string;
  'data-testid'?: string;
}

/**
 * An ECharts chart for data that keeps arriving (live training metrics): updates replace the series
 * and merge the rest, so a zoom (dataZoom) or legend choice the user made survives new points, and
 * legend clicks are reported so several charts can stay in step. The library loads on first render.
 * (components/echart.tsx redraws from scratch on each update, which suits static charts.)
 */
export function ZoomChart({ option: raw, height = 260, onLegendChange, ...rest }: ZoomChartProps) {
  const scheme = useComputedColorScheme('light');
  const option = useMemo(() => themedChart(raw, scheme), [raw, scheme]);
  const ref = useRef<HTMLDivElement>(null);
  const chart = useRef<Chart | null>(null);
  const onLegend = useRef(onLegendChange);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    onLegend.current = onLegendChange;
  }, [onLegendChange]);

  useEffect(() => {
    let disposed = false;
    let observer: ResizeObserver | null = null;
    loadECharts()
      .then((echarts) => {
        if (disposed || !ref.current) return;
        const instance = echarts.init(ref.current, undefined, { renderer: 'canvas' });
        chart.current = instance;
        instance.on('legendselectchanged', (e) => onLegend.current?.((e as { selected: Record<string, boolean> }).selected));
        observer = new ResizeObserver(() => instance.resize());
        observer.observe(ref.current);
        setReady(true);
      })
      .catch((error: unknown) => log.warn('chart unavailable', error));
    return () => {
      disposed = true;
      observer?.disconnect();
      chart.current?.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    if (ready) chart.current?.setOption(option, { replaceMerge: ['series'] });
  }, [option, ready]);

  return (
    <Box pos="relative" h={height} role="img" aria-label={rest['aria-label']} data-testid={rest['data-testid']} data-ready={ready || undefined}>
      <div ref={ref} style={{ position: 'absolute', inset: 0 }} />
      {!ready && (
        <Center pos="absolute" inset={0}>
          <Loader size="sm" type="dots" />
        </Center>
      )}
    </Box>
  );
}
