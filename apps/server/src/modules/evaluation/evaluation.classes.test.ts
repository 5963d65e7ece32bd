import { describe, expect, it } from 'vitest';
import { iou, labelToBox, mapClasses, TopByConfidence } from './evaluation.classes.js';

describe('mapClasses', () => {
  it('pairs dataset and model classes by name, ignoring case and spaces, and reports the rest', () => {
    const map = mapClasses(['Car', ' person', 'kite'], ['person', 'bicycle', 'car']);
    expect(map.pairs).toEqual([
      { datasetClass: 0, modelClass: 2, name: 'car' },
      { datasetClass: 1, modelClass: 0, name: 'person' },
    ]);
    expect(map.unmappedDataset).toEqual(['kite']);
    expect(map.unmappedModel).toEqual(['bicycle']);
  });
  it('finds nothing in common between unrelated class lists', () => {
    expect(mapClasses(['a'], ['b']).pairs).toEqual([]);
  });
});

describe('labelToBox', () => {
  it('turns normalised detect rows into pixel corners', () => {
    expect(labelToBox([2, 0.5, 0.5, 0.2, 0.4], 'detect', 200, 100)).toEqual({ classId: 2, box: [80, 30, 120, 70] });
  });
  it('turns segment polygons into their bounding box and pixel outline', () => {
    const b = labelToBox([1, 0.1, 0.2, 0.5, 0.2, 0.3, 0.6], 'segment', 100, 50)!;
    expect(b.box).toEqual([10, 10, 50, 30]);
    expect(b.polygon).toEqual([10, 10, 50, 10, 30, 30]);
  });
  it('keeps pose keypoints in pixels with their visibility', () => {
    const b = labelToBox([0, 0.5, 0.5, 0.5, 0.5, 0.25, 0.5, 2, 0, 0, 0], 'pose', 100, 100)!;
    expect(b.keypoints).toEqual([25, 50, 2, 0, 0, 0]);
  });
  it('skips rows without geometry', () => {
    expect(labelToBox([3], 'detect', 10, 10)).toBeNull();
  });
});

describe('iou and TopByConfidence', () => {
  it('computes IoU of corners', () => {
    expect(iou([0, 0, 10, 10], [5, 0, 15, 10])).toBeCloseTo(1 / 3);
    expect(iou([0, 0, 1, 1], [2, 2, 3, 3])).toBe(0);
  });
  it('keeps the most confident entries per key, in order', () => {
    const top = new TopByConfidence<{ confidence: number }>(3);
    for (let i = 0; i < 20; i++) top.add(i % 2 ? 'odd' : 'even', { confidence: i / 20 });
    const lists = Object.fromEntries(top.entries());
    expect(lists.even!.map((e) => e.confidence)).toEqual([0.9, 0.8, 0.7]);
    expect(lists.odd!.map((e) => e.confidence)).toEqual([0.95, 0.85, 0.75]);
  });
});
