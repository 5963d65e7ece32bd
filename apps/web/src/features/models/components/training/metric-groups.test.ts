import { describe, expect, it } from 'vitest';
import { comparableKeys, groupMetrics, lineChartOption } from './metric-groups';

const rows = [
  {
    epoch: 1,
    'train/box_loss': 1.2,
    'val/box_loss': 1.4,
    'metrics/precision(B)': 0.5,
    'metrics/recall(B)': 0.4,
    'metrics/mAP50(B)': 0.45,
    'metrics/mAP50-95(B)': 0.3,
    lr: 0.01,
    fitness: 0.3,
  },
  { epoch: 0, 'train/box_loss': 1.5, 'val/box_loss': null, 'metrics/precision(B)': 0.3, 'metrics/mAP50-95(M)': 0.2 },
];

describe('metric groups', () => {
  it('one group per chart, epochs sorted and shown 1-based, non-numbers and unknown keys left out', () => {
    const groups = groupMetrics(rows);
    expect(groups.map((g) => g.id)).toEqual(['loss', 'precision', 'recall', 'mAP50', 'mAP50-95']);
    expect(groups[0]!.series).toEqual([
      {
        key: 'train/box_loss',
        points: [
          [1, 1.5],
          [2, 1.2],
        ],
      },
      { key: 'val/box_loss', points: [[2, 1.4]] },
    ]);
    expect(groups.find((g) => g.id === 'mAP50-95')!.series.map((s) => s.key)).toEqual(['metrics/mAP50-95(B)', 'metrics/mAP50-95(M)']);
  });

  it('compares quality metrics first, then validation losses', () => {
    expect(comparableKeys([rows, [{ epoch: 0, 'metrics/accuracy_top1': 0.9 }]])).toEqual([
      'metrics/mAP50-95(B)',
      'metrics/mAP50-95(M)',
      'metrics/mAP50(B)',
      'metrics/accuracy_top1',
      'metrics/precision(B)',
      'metrics/recall(B)',
      'val/box_loss',
    ]);
  });

  it('charts zoom on the epoch axis and mark the best epoch', () => {
    const option = lineChartOption({ series: [{ name: 'a', points: [[1, 0.1]] }], markEpoch: 3, markLabel: 'best' }) as Record<string, any>;
    expect(option.dataZoom.map((z: { type: string }) => z.type)).toEqual(['inside', 'slider']);
    expect(option.series[0].markLine.data).toEqual([{ xAxis: 3 }]);
  });
});
