import type { Prediction } from '../inference/index.js';

/** Pure helpers of pre-labelling (ADR 0039): the model → dataset class map, predictions as YOLO label rows. */

const norm = (name: string) => name.trim().toLowerCase();

export type ClassMapEntry = { modelClass: number; name: string; datasetClass: number | null };

/**
 * Each model class goes to the dataset class the request names for it (`overrides`, model class name →
 * dataset class name or null to leave it out), else to the dataset class of the same name (case and
 * surrounding spaces ignored), else nowhere. Names an override uses that either side lacks are returned.
 */
export function resolveClassMap(
  modelNames: readonly string[],
  datasetNames: readonly string[],
  overrides: Record<string, string | null>,
): { map: ClassMapEntry[]; unknownModel: string[]; unknownDataset: string[] } {
  const datasetByName = new Map<string, number>();
  datasetNames.forEach((n, i) => {
    if (!datasetByName.has(norm(n))) datasetByName.set(norm(n), i);
  });
  const overrideByModel = new Map(Object.entries(overrides).map(([k, v]) => [norm(k), v]));
  const modelKnown = new Set(modelNames.map(norm));
  const unknownModel = Object.keys(overrides).filter((k) => !modelKnown.has(norm(k)));
  const unknownDataset = Object.values(overrides).filter((v): v is string => v !== null && !datasetByName.has(norm(v)));
  const map = modelNames.map((name, modelClass) => {
    const o = overrideByModel.get(norm(name));
    const target = o === undefined ? name : o;
    const datasetClass = target === null ? null : (datasetByName.get(norm(target)) ?? null);
    return { modelClass, name, datasetClass };
  });
  return { map, unknownModel, unknownDataset };
}

/** Which model tasks can label a dataset of this task: boxes from any box-giving model, polygons from segment, keypoints from pose. */
export function canLabel(datasetTask: string, modelTask: string): boolean {
  if (datasetTask === 'detect') return modelTask === 'detect' || modelTask === 'segment' || modelTask === 'pose';
  return datasetTask === modelTask && datasetTask !== 'obb';
}

const r6 = (v: number) => Math.round(Math.min(1, Math.max(0, v)) * 1e6) / 1e6;

/**
 * A prediction as label rows of a `datasetTask` dataset, in the dataset's class ids and normalised
 * (`[cls, cx, cy, w, h]` detect, `[cls, x1, y1, ...]` segment from the mask's outline, pose with
 * `x, y, v` per keypoint); classify gives the top class as `className`. Model classes mapped nowhere
 * and results under `conf` are left out.
 */
export function predictionToLabels(
  pred: Prediction,
  datasetTask: string,
  map: readonly ClassMapEntry[],
  datasetNames: readonly string[],
  conf: number,
): { rows: number[][]; conf: number[]; className: string | null } {
  const { width: W, height: H } = pred.imageSize;
  const rows: number[][] = [];
  const confs: number[] = [];
  if (datasetTask === 'classify') {
    const top = pred.results[0];
    const target = top ? map[top.class]?.datasetClass : null;
    if (!top || top.confidence < conf || target === null || target === undefined) return { rows, conf: confs, className: null };
    return { rows, conf: [top.confidence], className: datasetNames[target] ?? null };
  }
  for (const r of pred.results) {
    const cls = map[r.class]?.datasetClass;
    if (cls === null || cls === undefined || r.confidence < conf) continue;
    if (datasetTask === 'segment') {
      const s = r.segments;
      if (!s || s.x.length < 3) continue;
      const row = [cls];
      for (let i = 0; i < s.x.length; i++) row.push(r6(s.x[i]! / W), r6(s.y[i]! / H));
      rows.push(row);
    } else {
      const b = r.box;
      if (!b) continue;
      const row = [cls, r6((b.x1 + b.x2) / 2 / W), r6((b.y1 + b.y2) / 2 / H), r6((b.x2 - b.x1) / W), r6((b.y2 - b.y1) / H)];
      if (datasetTask === 'pose' && r.keypoints) {
        const k = r.keypoints;
        for (let i = 0; i < k.x.length; i++) row.push(r6(k.x[i]! / W), r6(k.y[i]! / H), k.visible ? (k.visible[i]! >= 0.5 ? 2 : 0) : 2);
      }
      rows.push(row);
    }
    confs.push(Math.round(r.confidence * 1e4) / 1e4);
  }
  return { rows, conf: confs, className: null };
}
