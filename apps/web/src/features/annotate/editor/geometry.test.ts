import { describe, expect, it } from 'vitest';
import { boxFromCorners, fitView, hitTest, moveShape, pinch, rowsToShapes, shapesToRows, toImage, toScreen, zoomAt, type Shape } from './geometry';

describe('editor geometry (ADR 0040: one view transform, labels in image pixels)', () => {
  it('maps screen to image and back exactly at any zoom and pan', () => {
    let v = fitView(4000, 3000, 1200, 800);
    for (const [f, x, y] of [
      [3, 100, 200],
      [0.25, 640, 10],
      [7.5, 1199, 799],
    ] as const) {
      v = zoomAt(v, f, { x, y });
      const p = { x: 1234.5, y: 987.25 };
      const back = toImage(v, toScreen(v, p));
      expect(back.x).toBeCloseTo(p.x, 9);
      expect(back.y).toBeCloseTo(p.y, 9);
    }
  });

  it('keeps the image point under the cursor fixed while zooming', () => {
    const v = fitView(640, 480, 800, 600);
    const at = { x: 300, y: 222 };
    const before = toImage(v, at);
    const after = toImage(zoomAt(v, 4, at), at);
    expect(after.x).toBeCloseTo(before.x, 9);
    expect(after.y).toBeCloseTo(before.y, 9);
  });

  it('fits the whole image centred', () => {
    const v = fitView(1000, 500, 1032, 1032, 16);
    expect(v.scale).toBeCloseTo(1, 9);
    expect(toScreen(v, { x: 0, y: 0 })).toEqual({ x: 16, y: 266 });
  });

  it('pinches: the points under two fingers follow them', () => {
    const v = fitView(800, 600, 800, 600, 0);
    const before: [{ x: number; y: number }, { x: number; y: number }] = [
      { x: 100, y: 100 },
      { x: 300, y: 100 },
    ];
    const after: typeof before = [
      { x: 50, y: 150 },
      { x: 450, y: 150 },
    ];
    const next = pinch(v, before, after);
    expect(next.scale).toBeCloseTo(v.scale * 2, 9);
    const a = toScreen(next, toImage(v, before[0]));
    expect(a.x).toBeCloseTo(50, 9);
    expect(a.y).toBeCloseTo(150, 9);
  });

  it('round-trips detect, segment and pose rows through pixels', () => {
    const detect = [[2, 0.5, 0.25, 0.2, 0.1]];
    const shapes = rowsToShapes(detect, 'detect', 640, 480);
    expect(shapes[0]).toMatchObject({ kind: 'box', cls: 2, x: 256, y: 96, w: 128, h: 48 });
    expect(shapesToRows(shapes, 'detect', 640, 480)[0]!.map((n) => Number(n.toFixed(12)))).toEqual(detect[0]);
    const seg = [[1, 0.1, 0.1, 0.9, 0.1, 0.5, 0.8]];
    expect(shapesToRows(rowsToShapes(seg, 'segment', 333, 777), 'segment', 333, 777)[0]!.map((n) => Number(n.toFixed(12)))).toEqual(seg[0]);
    const pose = [[0, 0.5, 0.5, 0.4, 0.4, 0.45, 0.4, 2, 0, 0, 0]];
    const poseShapes = rowsToShapes(pose, 'pose', 100, 200);
    expect(poseShapes[0]).toMatchObject({
      keypoints: [
        [45, 80, 2],
        [0, 0, 0],
      ],
    });
    expect(shapesToRows(poseShapes, 'pose', 100, 200)[0]!.map((n) => Number(n.toFixed(12)))).toEqual(pose[0]);
  });

  it('draws boxes inside the image from any two corners', () => {
    expect(boxFromCorners({ x: 500, y: -20 }, { x: 100, y: 60 }, 400, 300)).toEqual({ x: 100, y: 0, w: 300, h: 60 });
  });

  it('hits the topmost shape and moves shapes without leaving the image', () => {
    const shapes: Shape[] = [
      { kind: 'box', cls: 0, x: 10, y: 10, w: 100, h: 100, keypoints: [] },
      {
        kind: 'polygon',
        cls: 1,
        points: [
          [50, 50],
          [150, 50],
          [100, 150],
        ],
      },
    ];
    expect(hitTest(shapes, { x: 100, y: 70 })).toBe(1);
    expect(hitTest(shapes, { x: 20, y: 20 })).toBe(0);
    expect(hitTest(shapes, { x: 300, y: 300 })).toBe(-1);
    expect(moveShape(shapes[0]!, -50, 500, 200, 200)).toMatchObject({ x: 0, y: 100 });
  });
});
