import { describe, expect, it } from 'vitest';
import { CHART_COLORS, contrastRatio, themedChart } from './chart-theme';

describe('chart colours', () => {
  it('text meets WCAG AA on the chart surface in both schemes', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const c = CHART_COLORS[scheme];
      expect(contrastRatio(c.text, c.surface), scheme).toBeGreaterThanOrEqual(4.5);
      // Gridlines stay quieter than the text (dark mode used white gridlines under dark grey labels).
      expect(contrastRatio(c.grid, c.surface), scheme).toBeLessThan(contrastRatio(c.text, c.surface));
    }
  });

  it('puts the scheme colours on axis labels, legends and gridlines, keeping what the option sets', () => {
    const option = themedChart(
      { legend: { top: 0 }, xAxis: { type: 'category' }, yAxis: [{ type: 'value', axisLabel: { width: 140 } }], series: [] },
      'dark',
    ) as Record<string, any>;
    const dark = CHART_COLORS.dark;
    expect(option.textStyle.color).toBe(dark.text);
    expect(option.legend.textStyle.color).toBe(dark.text);
    expect(option.legend.top).toBe(0);
    expect(option.xAxis.axisLabel.color).toBe(dark.text);
    expect(option.xAxis.splitLine.lineStyle.color).toBe(dark.grid);
    expect(option.yAxis[0].axisLabel).toEqual({ color: dark.text, width: 140 });
    expect(contrastRatio(option.yAxis[0].axisLabel.color, dark.surface)).toBeGreaterThanOrEqual(4.5);
  });
});
