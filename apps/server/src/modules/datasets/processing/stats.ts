/**
 * Dataset statistics in the shape of ultralytics' `HUBDatasetStats.get_json()` (minus its per-image
 * `labels`, which go to `onImage` instead), plus the spec's dataset summary (§3 stats). Pure and
 * incremental: one image at a time, memory proportional to the class count only.
 */
import { SPLITS, type Split } from './types.js';

/** The shapes are the contract's (one schema for server and web): the spec's summary and `HUBDatasetStats`. */
export type { SplitStats, HubDatasetStats, DatasetSummary, StoredDatasetStats as DatasetStats } from '@sightline/contracts';
import type { DatasetSummary, HubDatasetStats, SplitStats, StoredDatasetStats as DatasetStats } from '@sightline/contracts';

export class StatsAccumulator {
  private readonly splits = new Map<Split, { images: number; unlabelled: number; instances: number[]; imagesWith: number[] }>();

  constructor(private readonly names: readonly string[]) {}

  /** Adds one image given the class id of each of its objects (classify: its one class). */
  addImage(split: Split, classIds: readonly number[]): void {
    let s = this.splits.get(split);
    if (!s) {
      s = { images: 0, unlabelled: 0, instances: new Array<number>(this.names.length).fill(0), imagesWith: new Array<number>(this.names.length).fill(0) };
      this.splits.set(split, s);
    }
    s.images++;
    if (classIds.length === 0) {
      s.unlabelled++;
      return;
    }
    const present = new Set<number>();
    for (const id of classIds) {
      s.instances[id]++;
      present.add(id);
    }
    for (const id of present) s.imagesWith[id]++;
  }

  toStats(): DatasetStats {
    const split = (name: Split): SplitStats | null => {
      const s = this.splits.get(name);
      if (!s || s.images === 0) return null;
      return {
        instance_stats: { total: s.instances.reduce((a, b) => a + b, 0), per_class: [...s.instances] },
        image_stats: { total: s.images, unlabelled: s.unlabelled, per_class: [...s.imagesWith] },
      };
    };
    const hub: HubDatasetStats = { nc: this.names.length, names: [...this.names], train: split('train'), val: split('val'), test: split('test') };
    const count = (name: Split) => this.splits.get(name)?.images ?? 0;
    const summary: DatasetSummary = {
      classes: [...this.names],
      classCount: this.names.length,
      images: SPLITS.reduce((n, s) => n + count(s), 0),
      train: count('train'),
      val: count('val'),
      test: count('test'),
    };
    return { summary, hub };
  }
}
