import { describe, expect, it } from 'vitest';
import { findExternalContours, maskToSegment, mergeMultiSegment, type Point } from './contours.js';
import { processMask } from './mask.js';
import { boxIou, nms } from './nms.js';
import { decodeDetections, scaleBoxToImage, scalePointToImage, topK } from './postprocess.js';

describe('nms', () => {
  // Two overlapping boxes of class 0 (IoU 0.6), one of class 1 on top of them, one far away.
  const boxes = [0, 0, 10, 10, 0, 2.5, 10, 12.5, 0, 0, 10, 10, 50, 50, 60, 60];
  const scores = [0.9, 0.8, 0.7, 0.6];
  const classes = [0, 0, 1, 0];

  it('computes IoU without the +1 pixel convention', () => {
    expect(boxIou(boxes, 0, 1)).toBeCloseTo(75 / 125, 10);
    expect(boxIou(boxes, 0, 3)).toBe(0);
    expect(boxIou([0, 0, 0, 0, 0, 0, 0, 0], 0, 1)).toBe(0);
  });

  it('suppresses only same-class overlaps above the threshold', () => {
    expect(nms(boxes, scores, { iou: 0.45, maxDet: 300, classes })).toEqual([0, 2, 3]);
    expect(nms(boxes, scores, { iou: 0.6, maxDet: 300, classes })).toEqual([0, 1, 2, 3]); // IoU must exceed, not equal
  });

  it('suppresses across classes when agnostic, and caps at maxDet', () => {
    expect(nms(boxes, scores, { iou: 0.45, maxDet: 300 })).toEqual([0, 3]);
    expect(nms(boxes, scores, { iou: 0.45, maxDet: 2, classes })).toEqual([0, 2]);
  });

  it('orders by score, not by input position, and lets only kept boxes suppress', () => {
    // a-b and b-c overlap (IoU 0.43), a-c barely (0.11). With b first both neighbours go; with a first, b goes and
    // c survives because the suppressed b cannot remove it.
    const chain = [0, 0, 10, 10, 0, 4, 10, 14, 0, 8, 10, 18];
    expect(nms(chain, [0.5, 0.9, 0.4], { iou: 0.3, maxDet: 10 })).toEqual([1]);
    expect(nms(chain, [0.9, 0.5, 0.4], { iou: 0.3, maxDet: 10 })).toEqual([0, 2]);
  });
});

describe('decodeDetections', () => {
  /** Builds a [1, 4 + nc + extra, n] head output from per-anchor rows. */
  const head = (rows: number[][]) => {
    const c = rows[0].length;
    const n = rows.length;
    const out = new Float32Array(c * n);
    rows.forEach((r, a) => r.forEach((v, k) => (out[k * n + a] = v)));
    return { out, dims: [1, c, n] };
  };

  it('takes the best class per anchor, thresholds, converts xywh and runs class-aware NMS', () => {
    const { out, dims } = head([
      [50, 50, 20, 20, 0.1, 0.9, 0.5, 0.25],
      [51, 50, 20, 20, 0.2, 0.8, 0.0, 0.5],
      [50, 50, 20, 20, 0.7, 0.1, 0.0, 0.75],
      [10, 10, 4, 4, 0.2, 0.25, 0.1, 1],
    ]);
    const dets = decodeDetections(out, dims, { nc: 3, extra: 1, conf: 0.25, iou: 0.45, maxDet: 300 });
    expect(dets.map((d) => [d.cls, d.score])).toEqual([
      [1, expect.closeTo(0.9, 6)],
      [0, expect.closeTo(0.7, 6)],
    ]);
    expect(dets[0].box).toEqual([40, 40, 60, 60]);
    expect([...dets[0].extra!]).toEqual([0.25]);
    expect([...dets[1].extra!]).toEqual([0.75]);
    // The 0.25 anchor is not above the threshold; agnostic NMS folds the class-0 box into the class-1 one.
    expect(decodeDetections(out, dims, { nc: 3, extra: 1, conf: 0.25, iou: 0.45, maxDet: 300, agnostic: true })).toHaveLength(1);
  });

  it('reads end-to-end outputs without running NMS again', () => {
    const out = Float32Array.from([1, 2, 3, 4, 0.5, 2, 5, 6, 7, 8, 0.9, 0, 0, 0, 1, 1, 0.1, 1]);
    const dets = decodeDetections(out, [1, 3, 6], { nc: 3, extra: 0, conf: 0.25, iou: 0.45, maxDet: 300, end2end: true });
    expect(dets.map((d) => [d.cls, d.box])).toEqual([
      [0, [5, 6, 7, 8]],
      [2, [1, 2, 3, 4]],
    ]);
  });

  it('rejects outputs that do not match the class count', () => {
    expect(() => decodeDetections(new Float32Array(7 * 5), [1, 7, 5], { nc: 4, extra: 0, conf: 0.25, iou: 0.45, maxDet: 1 })).toThrow(/shape/);
  });
});

describe('box and point scaling', () => {
  // 224x160 letterboxed into 160x160: gain 5/7, resized 160x114, rounded top pad 23 (unrounded 22.857).
  const frame = { inputWidth: 160, inputHeight: 160, width: 224, height: 160 };

  it('undoes the letterbox with the rounded pad for boxes and clips to the image', () => {
    const [x1, y1, x2, y2] = scaleBoxToImage([10, 23, 150, 200], frame);
    expect(x1).toBeCloseTo(14, 10);
    expect(y1).toBeCloseTo(0, 10);
    expect(x2).toBeCloseTo(210, 10);
    expect(y2).toBe(160);
  });

  it('uses the unrounded pad for polygon points, as ultralytics scale_coords does', () => {
    const [x, y] = scalePointToImage(80, 80, frame);
    expect(x).toBeCloseTo(112, 10);
    expect(y).toBeCloseTo(80, 10);
    expect(scalePointToImage(-5, 500, frame)).toEqual([0, 160]);
  });

  it('ranks top-k by value, lower index first on ties', () => {
    expect(topK([0.1, 0.5, 0.2, 0.5, 0.05, 0.15], 5)).toEqual([1, 3, 2, 5, 0]);
    expect(topK([0.3, 0.7], 5)).toEqual([1, 0]);
  });

  it('top-k gives what a stable sort of every index by descending value gives (many ties, every k)', () => {
    const sorted = (v: number[], k: number) =>
      Array.from({ length: v.length }, (_, i) => i)
        .sort((a, b) => v[b] - v[a] || a - b)
        .slice(0, k);
    let seed = 1;
    const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
    for (let t = 0; t < 500; t++) {
      // Values from a handful of levels, so ties are common; lengths from 0 to 29.
      const v = Array.from({ length: Math.floor(rand() * 30) }, () => Math.floor(rand() * 6) / 5);
      for (const k of [0, 1, 3, 5, 40]) expect(topK(v, k)).toEqual(sorted(v, k));
    }
    expect(topK(new Float32Array([0.2, 0.9, 0.4]), 2)).toEqual([1, 2]);
  });
});

/** Builds a mask from rows of '#' and '.'. */
function grid(rows: string[]): { mask: Uint8Array; w: number; h: number } {
  const h = rows.length;
  const w = rows[0].length;
  const mask = new Uint8Array(w * h);
  rows.forEach((r, y) => [...r].forEach((ch, x) => (mask[y * w + x] = ch === '#' ? 1 : 0)));
  return { mask, w, h };
}

describe('findExternalContours (OpenCV RETR_EXTERNAL, CHAIN_APPROX_SIMPLE)', () => {
  it('traces a rectangle as its four corners, counter-clockwise from the top-left', () => {
    const { mask, w, h } = grid(['......', '.####.', '.####.', '.####.', '......']);
    expect(findExternalContours(mask, w, h)).toEqual([
      [
        [1, 1],
        [1, 3],
        [4, 3],
        [4, 1],
      ],
    ]);
  });

  it('keeps diagonal runs as their end points', () => {
    const { mask, w, h } = grid(['..#..', '.###.', '#####']);
    expect(findExternalContours(mask, w, h)).toEqual([
      [
        [2, 0],
        [0, 2],
        [4, 2],
      ],
    ]);
  });

  it('handles single pixels, lines and regions touching the image border', () => {
    expect(findExternalContours(grid(['...', '.#.', '...']).mask, 3, 3)).toEqual([[[1, 1]]]);
    expect(findExternalContours(grid(['###']).mask, 3, 1)).toEqual([
      [
        [0, 0],
        [2, 0],
      ],
    ]);
    const full = grid(['###', '###']);
    expect(findExternalContours(full.mask, 3, 2)).toEqual([
      [
        [0, 0],
        [0, 1],
        [2, 1],
        [2, 0],
      ],
    ]);
  });

  it('ignores holes and anything inside them, and lists regions last-found first', () => {
    const { mask, w, h } = grid([
      '#######...', //
      '#.....#...',
      '#.###.#...',
      '#.....#.##',
      '#######.##',
    ]);
    const contours = findExternalContours(mask, w, h);
    expect(contours).toHaveLength(2);
    expect(contours[0][0]).toEqual([8, 3]);
    expect(contours[1]).toEqual([
      [0, 0],
      [0, 4],
      [6, 4],
      [6, 0],
    ]);
  });

  it('treats 8-connected pixels as one region', () => {
    const { mask, w, h } = grid(['#..', '.#.', '..#']);
    expect(findExternalContours(mask, w, h)).toHaveLength(1);
  });
});

describe('mergeMultiSegment / maskToSegment', () => {
  it('joins two polygons at their closest points into one closed walk', () => {
    const a: Point[] = [
      [0, 0],
      [0, 2],
      [2, 2],
      [2, 0],
    ];
    const b: Point[] = [
      [5, 1],
      [5, 3],
      [7, 3],
      [7, 1],
    ];
    // Closest pair: a[2] (2,2) and b[0] (5,1). Each polygon is rolled to start there and closed.
    expect(mergeMultiSegment([a, b])).toEqual([
      [2, 2],
      [2, 0],
      [0, 0],
      [0, 2],
      [2, 2],
      [5, 1],
      [5, 3],
      [7, 3],
      [7, 1],
      [5, 1],
    ]);
  });

  it('returns one polygon for a mask in parts and none for an empty mask', () => {
    const { mask, w, h } = grid(['##...', '##...', '...##']);
    const poly = maskToSegment(mask, w, h);
    expect(poly.length).toBeGreaterThan(4);
    expect(maskToSegment(new Uint8Array(12), 4, 3)).toEqual([]);
  });
});

describe('processMask', () => {
  it('crops at prototype resolution, upsamples bilinearly and thresholds logits at 0', () => {
    // One 4x4 prototype of +1 everywhere, coefficient 1: the mask is the box, grown by the bilinear blend.
    const protos = { data: new Float32Array(16).fill(1), count: 1, width: 4, height: 4 };
    const { mask, pixels } = processMask(protos, [1], [4, 4, 12, 12], 16, 16);
    // Box cells 1..2 on the 4x4 grid; at 16x16 the blend stays > 0 up to 1.5 px outside the cropped cells.
    const rows = Array.from({ length: 16 }, (_, y) => [...mask.subarray(y * 16, y * 16 + 16)].join(''));
    expect(rows[8]).toBe('0011111111111100');
    expect(rows[0]).toBe('0000000000000000');
    expect(pixels).toBe(12 * 12);
    const negative = processMask(protos, [-1], [4, 4, 12, 12], 16, 16);
    expect(negative.pixels).toBe(0);
    expect(processMask(protos, [1], [5, 5, 5.5, 5.5], 16, 16).pixels).toBe(0);
  });
});
