import { describe, expect, it } from 'vitest';
import { mergeChunks, resumeAfter, type ConsoleChunk } from './training-console';

const now = Date.parse('2026-05-01T12:00:00Z');
const chunk = (chunkId: number, agoMs = 1000): ConsoleChunk => ({
  chunkId,
  content: `line ${chunkId}`,
  lineCount: 1,
  created: new Date(now - agoMs).toISOString(),
});

describe('console chunks', () => {
  it('resumes before a recent hole (a chunk still on its way) and past an old one (lost)', () => {
    expect(resumeAfter([], now)).toBe(0);
    expect(resumeAfter([chunk(1), chunk(2), chunk(3)], now)).toBe(3);
    expect(resumeAfter([chunk(1), chunk(3)], now)).toBe(1);
    expect(resumeAfter([chunk(1), chunk(3, 120_000), chunk(4)], now)).toBe(4);
  });

  it('merges by chunk id in order, the newer copy winning', () => {
    const merged = mergeChunks([chunk(1), chunk(3)], [chunk(2), { ...chunk(3), content: 'again' }]);
    expect(merged.map((c) => [c.chunkId, c.content])).toEqual([
      [1, 'line 1'],
      [2, 'line 2'],
      [3, 'again'],
    ]);
  });
});
