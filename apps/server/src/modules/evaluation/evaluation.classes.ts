import type { EvaluationBox, EvaluationClassMap } from '@sightline/contracts';

/** Pure helpers of the evaluation job (ADR 0035): class names matched, label rows turned into pixel boxes. */

const norm = (name: string) => name.trim().toLowerCase();

/** Dataset classes matched to the model's by name (case and surrounding spaces ignored); the first model class of a name wins. */
export function mapClasses(datasetNames: readonly string[], modelNames: readonly string[]): EvaluationClassMap {
  const byName = new Map<string, number>();
  modelNames.forEach((n, i) => {
    if (!byName.has(norm(n))) byName.set(norm(n), i);
  });
  const pairs: EvaluationClassMap['pairs'] = [];
  const unmappedDataset: string[] = [];
  const used = new Set<number>();
  datasetNames.forEach((n, i) => {
    const m = byName.get(norm(n));
    if (m === undefined) unmappedDataset.push(n);
    else {
      pairs.push({ datasetClass: i, modelClass: m, name: modelNames[m]! });
      used.add(m);
    }
  });
  const unmappedModel = modelNames.filter((_, i) => !used.has(i));
  return { pairs, unmappedDataset, unmappedModel, skippedLabels: 0 };
}

export type Task = 'detect' | 'segment' | 'pose' | 'obb' | 'classify';

/**
 * One stored label row (normalised NDJSON form: detect `[cls, cx, cy, w, h]`, segment `[cls, x1, y1, ...]`,
 * pose `[cls, cx, cy, w, h, kx, ky(, v)...]`) in pixels of a `width`×`height` image; null for rows that hold
 * no geometry. The class id is left as stored (the dataset's).
 */
export function labelToBox(row: readonly number[], task: Task, width: number, height: number): (EvaluationBox & { keypoints?: number[] }) | null {
  const [cls, ...v] = row;
  if (cls === undefined || v.length < 4) return null;
  if (task === 'segment' && v.length >= 6) {
    const polygon: number[] = [];
    let x1 = Infinity;
    let y1 = Infinity;
    let x2 = -Infinity;
    let y2 = -Infinity;
    for (let i = 0; i + 1 < v.length; i += 2) {
      const x = v[i]! * width;
      const y = v[i + 1]! * height;
      polygon.push(x, y);
      x1 = Math.min(x1, x);
      y1 = Math.min(y1, y);
      x2 = Math.max(x2, x);
      y2 = Math.max(y2, y);
    }
    return { classId: cls, box: [x1, y1, x2, y2], polygon };
  }
  const [cx, cy, w, h] = v as [number, number, number, number];
  const box: [number, number, number, number] = [(cx - w / 2) * width, (cy - h / 2) * height, (cx + w / 2) * width, (cy + h / 2) * height];
  if (task === 'pose' && v.length > 4) {
    const rest = v.slice(4);
    const step = rest.length % 3 === 0 ? 3 : 2;
    const keypoints: number[] = [];
    for (let i = 0; i + 1 < rest.length; i += step) keypoints.push(rest[i]! * width, rest[i + 1]! * height, step === 3 ? rest[i + 2]! : 1);
    return { classId: cls, box, keypoints };
  }
  return { classId: cls, box };
}

/** Intersection over union of two xyxy boxes. */
export function iou(a: readonly number[], b: readonly number[]): number {
  const iw = Math.max(0, Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!));
  const ih = Math.max(0, Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!));
  const inter = iw * ih;
  const union = (a[2]! - a[0]!) * (a[3]! - a[1]!) + (b[2]! - b[0]!) * (b[3]! - b[1]!) - inter;
  return union > 0 ? inter / union : 0;
}

/**
 * The most confident entries of each key, at most `limit` per key, in bounded memory: a key's list is
 * trimmed once it holds twice the limit.
 */
export class TopByConfidence<T extends { confidence: number }> {
  private readonly lists = new Map<string, T[]>();
  constructor(private readonly limit: number) {}

  add(key: string, entry: T) {
    let list = this.lists.get(key);
    if (!list) this.lists.set(key, (list = []));
    list.push(entry);
    if (list.length >= this.limit * 2) this.trim(list);
  }

  private trim(list: T[]) {
    list.sort((a, b) => b.confidence - a.confidence);
    list.length = Math.min(list.length, this.limit);
  }

  entries(): Array<[string, T[]]> {
    return [...this.lists.entries()].map(([k, list]) => {
      this.trim(list);
      return [k, list];
    });
  }
}
