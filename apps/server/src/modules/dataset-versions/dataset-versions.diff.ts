import type { DatasetDiff, DiffImage } from '@sightline/contracts';

/**
 * The diff of two dataset states (ADR 0038), pure: it sees image identities, splits, hashes and
 * labels, never image bytes. `from` and `to` need only hold the revisions that differ between the
 * two states (a revision both sides see cannot have changed); an image is the same image on both
 * sides when its stable id is (ADR 0037), or, among those left unpaired, when its content hash is.
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
  /** The same image on both sides: moved when its split changed, a label change when its labels did. */
  const compare = (a: DiffRow, b: DiffRow) => {
    if (a.split !== b.split) moved.push({ image: ref(b), fromSplit: a.split, toSplit: b.split });
    const aRenamed = { ...a, className: a.className === null ? null : (renamedTo.get(a.className) ?? a.className) };
    if (labelsKey(aRenamed, fromNames) !== labelsKey(b, to.classes))
      labelsChanged.push({ image: ref(b), before: a.labels, after: b.labels, classBefore: a.className, classAfter: b.className });
  };
  const gone: DiffRow[] = [];
  const fresh: DiffRow[] = [];
  for (const [id, b] of after) {
    const a = before.get(id);
    if (a) compare(a, b);
    else fresh.push(b);
  }
  for (const [id, a] of before) if (!after.has(id)) gone.push(a);
  // An image that left with one id and came back with another holding the same bytes (processed again,
  // ADR 0044) is the same image: paired by content hash, it is unchanged, moved or relabelled.
  const [pairs, unpairedGone, unpairedFresh] = pairByContent(gone, fresh);
  for (const [a, b] of pairs) compare(a, b);
  removed.push(...unpairedGone.map(ref));
  added.push(...unpairedFresh.map(ref));
  added.sort(byPlace);
  removed.sort(byPlace);
  moved.sort((x, y) => byPlace(x.image, y.image));
  labelsChanged.sort((x, y) => byPlace(x.image, y.image));
  return { added, removed, moved, labelsChanged, ...classes };
}

/**
 * Pairs rows that left with rows that came by SHA-256 (rows without one stay unpaired). Several rows
 * of one content pair deterministically: same split and name first, then same split, then in place order.
 */
function pairByContent(gone: DiffRow[], fresh: DiffRow[]): [Array<[DiffRow, DiffRow]>, DiffRow[], DiffRow[]] {
  const order = (x: DiffRow, y: DiffRow) => x.split.localeCompare(y.split) || x.name.localeCompare(y.name) || x.imageId.localeCompare(y.imageId);
  const waiting = new Map<string, DiffRow[]>();
  for (const a of [...gone].sort(order)) if (a.sha256) waiting.set(a.sha256, [...(waiting.get(a.sha256) ?? []), a]);
  const pairs: Array<[DiffRow, DiffRow]> = [];
  const used = new Set<DiffRow>();
  const unpaired: DiffRow[] = [];
  const sorted = [...fresh].sort(order);
  const take = (b: DiffRow, fits: (a: DiffRow) => boolean) => {
    const list = b.sha256 ? waiting.get(b.sha256) : undefined;
    const i = list ? list.findIndex(fits) : -1;
    if (!list || i < 0) return false;
    const [a] = list.splice(i, 1);
    pairs.push([a!, b]);
    used.add(b);
    return true;
  };
  for (const b of sorted) take(b, (a) => a.split === b.split && a.name === b.name);
  for (const b of sorted) if (!used.has(b)) take(b, (a) => a.split === b.split);
  for (const b of sorted) if (!used.has(b) && !take(b, () => true)) unpaired.push(b);
  const paired = new Set(pairs.map(([a]) => a));
  return [pairs, gone.filter((a) => !paired.has(a)), unpaired];
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
