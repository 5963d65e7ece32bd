import { describe, expect, it } from 'vitest';
import { pagesFor, visibleRange } from './virtual-range';

describe('virtual image list', () => {
  it('renders only the rows in view and asks for their pages only, even of 100,000 images', () => {
    const range = visibleRange(50_000 * 64, 640, 64, 100_000, 2);
    expect(range).toEqual({ start: 49_998, end: 50_012 });
    expect(pagesFor(range, 50)).toEqual([999, 1000]);
    expect(pagesFor(visibleRange(0, 640, 64, 3), 50)).toEqual([0]);
    expect(pagesFor(visibleRange(0, 640, 64, 0), 50)).toEqual([]);
  });
});
