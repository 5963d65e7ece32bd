import { describe, expect, it } from 'vitest';
import { classColor, fitContain, labelRect, PALETTE, placeLabels, toDisplayPoints, toDisplayRect } from './overlay-geometry';

describe('overlay geometry', () => {
  it('scales image pixels to the displayed size, letterboxing the spare axis', () => {
    // 320×240 shown in a 640×600 box: ×2, centred vertically (60 px bands).
    const fit = fitContain({ width: 320, height: 240 }, { width: 640, height: 600 });
    expect(fit).toEqual({ scale: 2, offsetX: 0, offsetY: 60, width: 640, height: 480 });
    expect(toDisplayRect({ x1: 10, y1: 20, x2: 110, y2: 70 }, fit)).toEqual({ x: 20, y: 100, width: 200, height: 100 });
    // Shrunk: 1280×720 in 640×360, no bands.
    const down = fitContain({ width: 1280, height: 720 }, { width: 640, height: 360 });
    expect(toDisplayRect({ x1: 640, y1: 360, x2: 1280, y2: 720 }, down)).toEqual({ x: 320, y: 180, width: 320, height: 180 });
  });

  it('tolerates swapped corners and empty sizes', () => {
    const fit = fitContain({ width: 100, height: 100 }, { width: 50, height: 50 });
    expect(toDisplayRect({ x1: 80, y1: 60, x2: 20, y2: 40 }, fit)).toEqual({ x: 10, y: 20, width: 30, height: 10 });
    expect(fitContain({ width: 0, height: 10 }, { width: 10, height: 10 }).scale).toBe(0);
  });

  it('scales segment outlines point by point', () => {
    const fit = fitContain({ width: 320, height: 240 }, { width: 640, height: 600 });
    expect(toDisplayPoints({ x: [0, 10, 10.05], y: [0, 0, 5] }, fit)).toBe('0,60 20,60 20.1,70');
  });

  it('puts a label above its box, inside it at the top edge, and never past the right edge', () => {
    const bounds = { width: 300, height: 200 };
    expect(labelRect({ x: 10, y: 50, width: 40, height: 40 }, 'cat 0.90', bounds)).toEqual({ x: 10, y: 32, width: 64, height: 18 });
    expect(labelRect({ x: 10, y: 5, width: 40, height: 40 }, 'cat 0.90', bounds).y).toBe(5);
    expect(labelRect({ x: 280, y: 50, width: 20, height: 20 }, 'cat 0.90', bounds).x).toBe(236);
  });

  it('moves a label that would cover an earlier one inside or below its box', () => {
    const bounds = { width: 400, height: 300 };
    const [a, b] = placeLabels(
      [
        { rect: { x: 100, y: 100, width: 80, height: 80 }, text: 'red_square 0.93' },
        { rect: { x: 60, y: 95, width: 60, height: 60 }, text: 'green_circle 0.90' },
      ],
      bounds,
    );
    expect(a).toEqual({ x: 100, y: 82, width: 113, height: 18 });
    // Above its box (y 77) it would overlap the first tag; inside its top edge (y 95) too; below the box it is clear.
    expect(b).toEqual({ x: 60, y: 155, width: 127, height: 18 });
  });

  it('gives a class the same colour every time, by class id', () => {
    expect(classColor(0)).toBe(PALETTE[0]);
    expect(classColor(21)).toBe(PALETTE[1]);
    expect(classColor(21)).toBe(classColor(21));
  });
});
