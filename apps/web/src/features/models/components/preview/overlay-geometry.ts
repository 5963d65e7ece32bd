import type { PredictBox } from '../../api/predict-model';

export interface Size {
  width: number;
  height: number;
}

/** How an image of `source` pixels sits in a `box` of screen pixels when scaled to fit (object-fit: contain). */
export interface Fit {
  scale: number;
  offsetX: number;
  offsetY: number;
  width: number;
  height: number;
}

export function fitContain(source: Size, box: Size): Fit {
  if (source.width <= 0 || source.height <= 0 || box.width <= 0 || box.height <= 0) return { scale: 0, offsetX: 0, offsetY: 0, width: 0, height: 0 };
  const scale = Math.min(box.width / source.width, box.height / source.height);
  const width = source.width * scale;
  const height = source.height * scale;
  return { scale, offsetX: (box.width - width) / 2, offsetY: (box.height - height) / 2, width, height };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A box in image pixels (x1,y1,x2,y2) → a rectangle in displayed pixels. */
export function toDisplayRect(box: PredictBox, fit: Fit): Rect {
  const x1 = Math.min(box.x1, box.x2);
  const y1 = Math.min(box.y1, box.y2);
  return {
    x: fit.offsetX + x1 * fit.scale,
    y: fit.offsetY + y1 * fit.scale,
    width: Math.abs(box.x2 - box.x1) * fit.scale,
    height: Math.abs(box.y2 - box.y1) * fit.scale,
  };
}

/** A segment outline in image pixels → an SVG `points` attribute in displayed pixels. */
export function toDisplayPoints(segments: { x: number[]; y: number[] }, fit: Fit): string {
  const n = Math.min(segments.x.length, segments.y.length);
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(`${round(fit.offsetX + segments.x[i]! * fit.scale)},${round(fit.offsetY + segments.y[i]! * fit.scale)}`);
  return out.join(' ');
}

const round = (n: number) => Math.round(n * 10) / 10;

export const LABEL_HEIGHT = 18;
const CHAR_WIDTH = 7;

/** Label tag of a box: above it when there is room, else just inside its top edge; kept inside the image. */
export function labelRect(rect: Rect, text: string, bounds: Size): Rect {
  const width = Math.min(bounds.width, text.length * CHAR_WIDTH + 8);
  const y = rect.y - LABEL_HEIGHT >= 0 ? rect.y - LABEL_HEIGHT : rect.y;
  const x = Math.max(0, Math.min(rect.x, bounds.width - width));
  return { x, y, width, height: LABEL_HEIGHT };
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/**
 * Label tags for all boxes, most confident first: each goes above its box, else inside its top
 * edge, else below it, whichever first clears the tags already placed (else above, overlapping).
 */
export function placeLabels(items: Array<{ rect: Rect; text: string }>, bounds: Size): Rect[] {
  const placed: Rect[] = [];
  for (const { rect, text } of items) {
    const base = labelRect(rect, text, bounds);
    const candidates = [base, { ...base, y: rect.y }, { ...base, y: rect.y + rect.height }, { ...base, y: rect.y + rect.height - LABEL_HEIGHT }].filter(
      (c) => c.y >= 0 && c.y + LABEL_HEIGHT <= bounds.height,
    );
    placed.push(candidates.find((c) => !placed.some((p) => overlaps(c, p))) ?? base);
  }
  return placed;
}

export { classColor, PALETTE } from '../../../../lib/class-colors';

/** Black or white text, whichever reads better on the class colour. */
export function textColorOn(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000' : '#fff';
}
