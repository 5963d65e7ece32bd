import type { DatasetDiff, DiffImage } from '@sightline/contracts';

/**
 * The diff of two dataset states (ADR 0038), pure: it sees image identities, splits, hashes and
 * labels, never image bytes. `from` and `to` need only hold the revisions that differ between the
 * two states (a revision both sides see cannot have changed); an image is the same image on both
 * sides when its stable id is (ADR 0037).
 */
export interface DiffRow {
  imageId: string;
  name: string;
  split: string;
  labels: number[][];
  className: string | null;
  sha256: string | null;
  width?: number | null;
  height?: number | null;
}

/** The image as the diff lists it: its place, size and the labels of this side (the service adds the signed links). */
const ref = (r: DiffRow): DiffImage => ({
  id: r.imageId,
  name: r.name,
  split: r.split,
  width: r.width ?? null,
  height: r.height ?? null,
  labels: r.labels,
  className: r.className,
});
const byPlace = (a: DiffImage, b: DiffImage) => a.split.localeCompare(b.split) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id);

/** Class list changes by index: a name that changed in place (and is neither side's other name) is a rename. */
export function classChanges(from: string[], to: string[]) {
  const renamed: DatasetDiff['classesRenamed'] = [];
  const fromSet = new Set(from);
  const toSet = new Set(to);
  for (let i = 0; i < Math.min(from.length, to.length); i++) {
    const a = from[i]!;
    const b = to[i]!;
    if (a !== b && !toSet.has(a) && !fromSet.has(b)) renamed.push({ index: i, from: a, to: b });
  }
  const renamedFrom = new Set(renamed.map((r) => r.from));
  const renamedTo = new Set(renamed.map((r) => r.to));
  return {
    classesRenamed: renamed,
    classesAdded: to.filter((c) => !fromSet.has(c) && !renamedTo.has(c)),
    classesRemoved: from.filter((c) => !toSet.has(c) && !renamedFrom.has(c)),
  };
}

/** Rows in one state, with the class names they point at, so a rename alone is not a label change. */
const labelsKey = (r: DiffRow, classes: string[]) =>
  JSON.stringify([r.className, r.labels.map((row) => [classes[Number(row[0])] ?? `#${row[0]}`, ...row.slice(1)])]);

export function diffStates(
  from: { rows: DiffRow[]; classes: string[] },
  to: { rows: DiffRow[]; classes: string[] },
): Pick<DatasetDiff, 'added' | 'removed' | 'moved' | 'labelsChanged' | 'classesRenamed' | 'classesAdded' | 'classesRemoved'> {
  const classes = classChanges(from.classes, to.classes);
  // A renamed class keeps its index: compare label rows by the names of the `to` side for both.
  const renamedTo = new Map(classes.classesRenamed.map((r) => [r.from, r.to]));
  const fromNames = from.classes.map((c) => renamedTo.get(c) ?? c);
  const before = new Map(from.rows.map((r) => [r.imageId, r]));
  const after = new Map(to.rows.map((r) => [r.imageId, r]));
  const added: DiffImage[] = [];
  const removed: DiffImage[] = [];
  const moved: DatasetDiff['moved'] = [];
  const labelsChanged: DatasetDiff['labelsChanged'] = [];
  for (const [id, b] of after) {
    const a = before.get(id);
    if (!a) {
      added.push(ref(b));
      continue;
    }
    if (a.split !== b.split) moved.push({ image: ref(b), fromSplit: a.split, toSplit: b.split });
    const aRenamed = { ...a, className: a.className === null ? null : (renamedTo.get(a.className) ?? a.className) };
    if (labelsKey(aRenamed, fromNames) !== labelsKey(b, to.classes))
      labelsChanged.push({ image: ref(b), before: a.labels, after: b.labels, classBefore: a.className, classAfter: b.className });
  }
  for (const [id, a] of before) if (!after.has(id)) removed.push(ref(a));
  added.sort(byPlace);
  removed.sort(byPlace);
  moved.sort((x, y) => byPlace(x.image, y.image));
  labelsChanged.sort((x, y) => byPlace(x.image, y.image));
  return { added, removed, moved, labelsChanged, ...classes };
}

/** Objects (classify: images) per class name from per-index and per-name counts. */
export function histogramOf(classes: string[], counts: { byIndex: Array<{ cls: number; n: number }>; byName: Array<{ name: string; n: number }> }) {
  const out: Record<string, number> = Object.fromEntries(classes.map((c) => [c, 0]));
  for (const { cls, n } of counts.byIndex) {
    const name = classes[cls] ?? `#${cls}`;
    out[name] = (out[name] ?? 0) + n;
  }
  for (const { name, n } of counts.byName) out[name] = (out[name] ?? 0) + n;
  return out;
}
