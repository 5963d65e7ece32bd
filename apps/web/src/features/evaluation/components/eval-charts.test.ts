import { describe, expect, it } from 'vitest';
import { confusionOption, curveOption, curveSeries } from './eval-charts';

const labels = { predicted: 'Predicted', truth: 'True', background: 'background', scheme: 'light' as const };

describe('confusionOption', () => {
  // matrix[predicted][true], background last (ultralytics' orientation).
  const cm = {
    names: ['cat', 'dog', 'background'],
    background: true,
    matrix: [
      [5, 1, 2],
      [0, 3, 0],
      [1, 0, 0],
    ],
    conf: 0.25,
    iou: 0.45,
  };

  it('puts true classes on x, predicted on y with the first class on top, background named', () => {
    const o = confusionOption(cm, { ...labels, normalize: false }) as {
      xAxis: { data: string[] };
      yAxis: { data: string[] };
      series: Array<{ data: Array<{ value: number[] }> }>;
    };
    const values = o.series[0]!.data.map((d) => d.value);
    expect(o.xAxis.data).toEqual(['cat', 'dog', 'background']);
    expect(o.yAxis.data).toEqual(['background', 'dog', 'cat']);
    // predicted cat (row 0, drawn at y = 2), true dog (x = 1): 1
    expect(values).toContainEqual([1, 2, 1]);
    // a missed cat: predicted background (y = 0), true cat (x = 0)
    expect(values).toContainEqual([0, 0, 1]);
  });

  it('writes counts dark on light cells and light on dark cells, in both schemes', () => {
    type Cell = { value: number[]; label: { color: string } };
    const colour = (scheme: 'light' | 'dark', x: number, y: number) =>
      (confusionOption(cm, { ...labels, scheme, normalize: false }) as { series: Array<{ data: Cell[] }> }).series[0]!.data.find(
        (d) => d.value[0] === x && d.value[1] === y,
      )!.label.color;
    // predicted cat / true cat (5, the largest) and predicted dog / true cat (0)
    expect(colour('light', 0, 2)).toBe('#ffffff');
    expect(colour('light', 0, 1)).toBe('#1a1b1e');
    expect(colour('dark', 0, 2)).toBe('#1a1b1e');
    expect(colour('dark', 0, 1)).toBe('#f1f3f5');
  });

  it('normalises by column (true class) when asked', () => {
    const o = confusionOption(cm, { ...labels, normalize: true }) as { series: Array<{ data: Array<{ value: number[] }> }> };
    const cat = o.series[0]!.data.map((d) => d.value)
      .filter(([x]) => x === 0)
      .reduce((s, [, , v]) => s + v!, 0);
    expect(cat).toBeCloseTo(1, 1);
  });
});

describe('curveOption', () => {
  it('samples 1000-point curves down and draws the mean thick', () => {
    const x = Array.from({ length: 1000 }, (_, i) => i / 999);
    const series = curveSeries(
      [
        { classId: 0, name: 'cat', y: x.map((v) => 1 - v) },
        { classId: null, name: 'all', y: x.map(() => 0.5) },
      ],
      (v) => `all classes ${v}`,
      () => 0.5,
    );
    const o = curveOption({ x, series, xName: 'recall', yName: 'precision' }) as {
      series: Array<{ name: string; data: number[][]; lineStyle: { width: number } }>;
    };
    expect(o.series.map((s) => s.name)).toEqual(['cat', 'all classes 0.500']);
    expect(o.series[0]!.data.length).toBeLessThanOrEqual(201);
    expect(o.series[0]!.data.at(-1)).toEqual([1, 0]);
    expect(o.series[1]!.lineStyle.width).toBeGreaterThan(o.series[0]!.lineStyle.width);
  });
});
