import { describe, expect, it } from 'vitest';
import { StatsAccumulator } from './stats.js';

describe('StatsAccumulator', () => {
  it('computes HUBDatasetStats per split and the spec summary', () => {
    const acc = new StatsAccumulator(['a', 'b', 'c']);
    acc.addImage('train', [0, 0, 2]);
    acc.addImage('train', [1]);
    acc.addImage('train', []);
    acc.addImage('val', [2, 2]);
    const { hub, summary } = acc.toStats();
    expect(hub).toEqual({
      nc: 3,
      names: ['a', 'b', 'c'],
      train: { instance_stats: { total: 4, per_class: [2, 1, 1] }, image_stats: { total: 3, unlabelled: 1, per_class: [1, 1, 1] } },
      val: { instance_stats: { total: 2, per_class: [0, 0, 2] }, image_stats: { total: 1, unlabelled: 0, per_class: [0, 0, 1] } },
      test: null,
    });
    expect(summary).toEqual({ classes: ['a', 'b', 'c'], classCount: 3, images: 4, train: 3, val: 1, test: 0 });
  });
});
