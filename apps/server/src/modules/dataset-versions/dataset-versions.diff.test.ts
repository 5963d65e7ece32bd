import { describe, expect, it } from 'vitest';
import { parseDatasetSegment } from '@sightline/contracts';
import { classChanges, diffStates, histogramOf, type DiffRow } from './dataset-versions.diff.js';

const row = (imageId: string, split: string, labels: number[][] = [], className: string | null = null): DiffRow => ({
  imageId,
  name: `${imageId}.jpg`,
  split,
  labels,
  className,
  sha256: `h${imageId}`,
});

describe('dataset diff (ADR 0038)', () => {
  it('names the added, removed and moved images and the changed labels', () => {
    const d = diffStates(
      { rows: [row('a', 'train', [[0, 0.5, 0.5, 0.1, 0.1]]), row('b', 'train'), row('c', 'val', [[1, 0.2, 0.2, 0.1, 0.1]])], classes: ['cat', 'dog'] },
      { rows: [row('a', 'val', [[0, 0.5, 0.5, 0.1, 0.1]]), row('c', 'val', [[0, 0.2, 0.2, 0.1, 0.1]]), row('d', 'test')], classes: ['cat', 'dog'] },
    );
    expect(d.added.map((i) => i.id)).toEqual(['d']);
    expect(d.removed.map((i) => i.id)).toEqual(['b']);
    expect(d.moved).toHaveLength(1);
    expect(d.moved[0]).toMatchObject({
      image: { id: 'a', name: 'a.jpg', split: 'val', labels: [[0, 0.5, 0.5, 0.1, 0.1]] },
      fromSplit: 'train',
      toSplit: 'val',
    });
    expect(d.labelsChanged).toHaveLength(1);
    expect(d.labelsChanged[0]).toMatchObject({ image: { id: 'c' }, before: [[1, 0.2, 0.2, 0.1, 0.1]], after: [[0, 0.2, 0.2, 0.1, 0.1]] });
  });

  it('a renamed class is a rename, not a label change of every image holding it', () => {
    const labels = [[1, 0.5, 0.5, 0.2, 0.2]];
    const d = diffStates({ rows: [row('a', 'train', labels)], classes: ['cat', 'dog'] }, { rows: [row('a', 'train', labels)], classes: ['cat', 'hound'] });
    expect(d.classesRenamed).toEqual([{ index: 1, from: 'dog', to: 'hound' }]);
    expect(d.classesAdded).toEqual([]);
    expect(d.classesRemoved).toEqual([]);
    expect(d.labelsChanged).toEqual([]);
  });

  it('a deleted class shifts indexes: its name is removed and labels that moved index keep their meaning', () => {
    expect(classChanges(['a', 'b', 'c'], ['a', 'c'])).toEqual({ classesRenamed: [], classesAdded: [], classesRemoved: ['b'] });
    const d = diffStates(
      { rows: [row('x', 'train', [[2, 0.1, 0.1, 0.1, 0.1]])], classes: ['a', 'b', 'c'] },
      { rows: [row('x', 'train', [[1, 0.1, 0.1, 0.1, 0.1]])], classes: ['a', 'c'] },
    );
    expect(d.labelsChanged).toEqual([]);
    expect(classChanges(['a'], ['a', 'z']).classesAdded).toEqual(['z']);
  });

  it('classify: a renamed class name is not a label change, another class is', () => {
    const d = diffStates(
      { rows: [row('a', 'train', [], 'dog'), row('b', 'train', [], 'cat')], classes: ['cat', 'dog'] },
      { rows: [row('a', 'train', [], 'hound'), row('b', 'train', [], 'hound')], classes: ['cat', 'hound'] },
    );
    expect(d.labelsChanged.map((c) => [c.image.id, c.classBefore, c.classAfter])).toEqual([['b', 'cat', 'hound']]);
  });

  it('an image processed again (new id, same bytes) is matched by content hash: unchanged, moved or relabelled, never removed + added', () => {
    const box = [[0, 0.5, 0.5, 0.1, 0.1]];
    const again = (r: DiffRow, imageId: string, patch: Partial<DiffRow> = {}): DiffRow => ({ ...r, imageId, ...patch });
    const a = row('a', 'train', box);
    const b = row('b', 'train', box);
    const c = row('c', 'val', box);
    const gone = row('g', 'val');
    const d = diffStates(
      { rows: [a, b, c, gone], classes: ['cat'] },
      {
        rows: [
          again(a, 'a2'),
          again(b, 'b2', { split: 'val' }),
          again(c, 'c2', { labels: [[0, 0.4, 0.4, 0.1, 0.1]] }),
          // Same name as the removed one, other bytes: not the same image.
          { ...gone, imageId: 'g2', sha256: 'hother' },
        ],
        classes: ['cat'],
      },
    );
    expect(d.removed.map((i) => i.id)).toEqual(['g']);
    expect(d.added.map((i) => i.id)).toEqual(['g2']);
    expect(d.moved.map((m) => [m.image.id, m.fromSplit, m.toSplit])).toEqual([['b2', 'train', 'val']]);
    expect(d.labelsChanged.map((l) => l.image.id)).toEqual(['c2']);
    // Two copies of one content on each side pair by place first; one more copy is an addition.
    const dup = (id: string, split: string, name: string): DiffRow => ({ imageId: id, name, split, labels: [], className: null, sha256: 'hsame' });
    const e = diffStates(
      { rows: [dup('p', 'train', 'x.jpg'), dup('q', 'val', 'y.jpg')], classes: [] },
      { rows: [dup('q2', 'val', 'y.jpg'), dup('p2', 'train', 'x.jpg'), dup('r2', 'test', 'z.jpg')], classes: [] },
    );
    expect([e.removed, e.moved, e.labelsChanged]).toEqual([[], [], []]);
    expect(e.added.map((i) => i.id)).toEqual(['r2']);
    // Rows without a hash never pair.
    const f = diffStates({ rows: [{ ...a, sha256: null }], classes: ['cat'] }, { rows: [{ ...a, imageId: 'a3', sha256: null }], classes: ['cat'] });
    expect([f.removed.length, f.added.length]).toEqual([1, 1]);
  });

  it('histogram by class name, classes without objects at 0', () => {
    expect(
      histogramOf(['cat', 'dog', 'eel'], {
        byIndex: [
          { cls: 0, n: 3 },
          { cls: 1, n: 2 },
        ],
        byName: [],
      }),
    ).toEqual({ cat: 3, dog: 2, eel: 0 });
    expect(histogramOf([], { byIndex: [], byName: [{ name: 'cat', n: 4 }] })).toEqual({ cat: 4 });
  });
});

describe('ul:// dataset segment', () => {
  it('slug is the latest version, slug:vN version N', () => {
    expect(parseDatasetSegment('shapes')).toEqual({ slug: 'shapes', version: null });
    expect(parseDatasetSegment('shapes:v3')).toEqual({ slug: 'shapes', version: 3 });
    expect(parseDatasetSegment('my-data-v2:v12')).toEqual({ slug: 'my-data-v2', version: 12 });
    expect(parseDatasetSegment('shapes:3')).toBeNull();
    expect(parseDatasetSegment('shapes:vx')).toBeNull();
    expect(parseDatasetSegment('')).toBeNull();
  });
});
