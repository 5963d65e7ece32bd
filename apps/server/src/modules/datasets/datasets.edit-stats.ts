import type { StoredDatasetStats } from '@sightline/contracts';
import { SPLITS, StatsAccumulator, type Split } from './processing/index.js';

/** What statistics need of an image: its split and the class id of each label row. */
export type StatsImage = { split: string; labels: number[][] };

/** Statistics of a working state rebuilt from all its images (class edits: every label may have moved). */
export function statsOf(classes: readonly string[], images: readonly StatsImage[]): StoredDatasetStats {
  const acc = new StatsAccumulator(classes);
  for (const i of images)
    acc.addImage(
      i.split as Split,
      i.labels.map((r) => r[0]!),
    );
  return acc.toStats();
}

/**
 * Statistics after an edit that removed `minus` and added `plus` (ADR 0037): O(images changed), never
 * O(dataset), so adding ten images to a large dataset costs ten images.
 */
export function statsDelta(
  stats: StoredDatasetStats | null,
  classes: readonly string[],
  minus: readonly StatsImage[],
  plus: readonly StatsImage[],
): StoredDatasetStats {
  const nc = classes.length;
  const pad = (a: readonly number[] | undefined) => Array.from({ length: nc }, (_, i) => a?.[i] ?? 0);
  const splits = new Map<string, { images: number; unlabelled: number; instances: number[]; imagesWith: number[] }>();
  for (const name of SPLITS) {
    const s = stats?.hub[name];
    splits.set(name, {
      images: s?.image_stats.total ?? 0,
      unlabelled: s?.image_stats.unlabelled ?? 0,
      instances: pad(s?.instance_stats.per_class),
      imagesWith: pad(s?.image_stats.per_class),
    });
  }
  const apply = (img: StatsImage, sign: 1 | -1) => {
    const s = splits.get(img.split);
    if (!s) return;
    s.images += sign;
    if (img.labels.length === 0) {
      s.unlabelled += sign;
      return;
    }
    const present = new Set<number>();
    for (const r of img.labels) {
      const c = r[0]!;
      if (c >= 0 && c < nc) s.instances[c]! += sign;
      present.add(c);
    }
    for (const c of present) if (c >= 0 && c < nc) s.imagesWith[c]! += sign;
  };
  for (const i of minus) apply(i, -1);
  for (const i of plus) apply(i, 1);
  const split = (name: Split) => {
    const s = splits.get(name)!;
    if (s.images <= 0) return null;
    return {
      instance_stats: { total: s.instances.reduce((a, b) => a + b, 0), per_class: s.instances },
      image_stats: { total: s.images, unlabelled: s.unlabelled, per_class: s.imagesWith },
    };
  };
  const count = (name: Split) => Math.max(0, splits.get(name)!.images);
  return {
    summary: {
      classes: [...classes],
      classCount: nc,
      images: SPLITS.reduce((n, s) => n + count(s), 0),
      train: count('train'),
      val: count('val'),
      test: count('test'),
    },
    hub: { nc, names: [...classes], train: split('train'), val: split('val'), test: split('test') },
  };
}
