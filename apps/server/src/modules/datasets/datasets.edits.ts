import path from 'node:path';
import { ErrorCode, type DatasetEditKind, type ImageLabels } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { Db } from '../../platform/db/client.js';
import { storableJson } from '../../platform/db/storable.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { datasetsPolicy } from './datasets.policy.js';
import { datasetsRepository, type DatasetImageRow, type DatasetRow } from './datasets.repository.js';
import { statsDelta, statsOf } from './datasets.edit-stats.js';
import { dropBlobs, ownerKeyOf, putBlob, readImageBytes, sha256Of } from './datasets.image-source.js';
import { assertStorage } from '../storage/usage.service.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { parseLabelFile, type DatasetTask } from './processing/index.js';
import { checkPairs, collectPairs, type AddedFile } from './datasets.added-files.js';

/**
 * Edits of a dataset's working state (ADR 0037). Each runs in one transaction that locks the dataset
 * row, takes the next edit sequence number, changes image rows (in place when no version sees them,
 * else ending the old revision and inserting the new one), updates the class list and statistics, and
 * commits; then `dataset.edited` tells audit, realtime and webhooks (datasets.listeners.ts). Two users
 * editing at once are serialised by the row lock, so no edit is lost and labels always agree with the
 * class list of the same seq.
 */

type EditOutcome = {
  counts: Record<string, number>;
  /** The dataset's new class list, when the edit changes it. */
  classes?: string[];
  /** New statistics (else left as they are). */
  stats?: ReturnType<typeof statsOf>;
  /** Blob storage keys that lost their last reference. */
  gone?: string[];
  imageIds?: string[];
  result?: unknown;
};

/** The dataset an edit may change: 404 unless readable, 403 unless the matrix gives `update` (team members included). */
/** The dataset, Ready, if the user may make this edit: `label` (labels and added images, the labeler role of ADR 0039) or `update` (the rest). */
export async function editableDataset(ctx: AppContext, userId: string, id: string, action: 'update' | 'label' = 'update') {
  const row = await datasetsPolicy.act(ctx, userId, await datasetsRepository.byId(ctx.db, id), action);
  if (!row.processedAt || row.status !== 'Ready') throw errors.conflict(ErrorCode.DatasetNotReady, 'Edit a dataset once it is processed (Ready)');
  return row;
}

export const classesOf = (row: Pick<DatasetRow, 'classes' | 'stats'>): string[] => row.classes ?? row.stats?.summary.classes ?? [];

/** Runs one edit: lock, seq + 1, apply, classes/stats, commit, then the domain event. */
export async function runEdit<T extends EditOutcome>(
  ctx: AppContext,
  userId: string,
  datasetId: string,
  kind: DatasetEditKind,
  apply: (tx: Db, d: DatasetRow, seq: number) => Promise<T>,
) {
  const { d, out } = await ctx.db.transaction(async (tx) => {
    const locked = await datasetsRepository.lockForEdit(tx, datasetId);
    if (!locked || locked.deletedAt) throw errors.notFound('Dataset');
    const seq = locked.seq + 1;
    const out = await apply(tx, locked, seq);
    const d = await datasetsRepository.nextSeq(tx, datasetId, {
      ...(out.classes ? { classes: storableJson(out.classes) } : {}),
      ...(out.stats ? { stats: storableJson(out.stats) } : {}),
      updatedAt: ctx.clock.now(),
    });
    return { d, out };
  });
  await dropBlobs(ctx, out.gone ?? []);
  await ctx.events.emit('dataset.edited', d.userId, { datasetId, seq: d.seq, kind, counts: out.counts, actorId: userId });
  return {
    seq: d.seq,
    classes: classesOf(d),
    counts: out.counts,
    ...(out.imageIds ? { imageIds: out.imageIds } : {}),
    dataset: d,
    result: out.result as T['result'],
  };
}

/** Working rows of these image ids, 404 naming the first unknown one. */
async function rowsOf(tx: Db, datasetId: string, imageIds: string[]) {
  const ids = [...new Set(imageIds)];
  const rows = await datasetsRepository.workingByImageIds(tx, datasetId, ids);
  if (rows.length !== ids.length) {
    const found = new Set(rows.map((r) => r.imageId));
    throw errors.notFound(`Image ${ids.find((i) => !found.has(i))}`);
  }
  return rows;
}

/** A name free in the split: `a.jpg`, else `a-2.jpg`, `a-3.jpg`, ... (names are file names in the YOLO layout). */
export async function freeNames(tx: Db, datasetId: string, split: string, wanted: string[]) {
  const taken = await datasetsRepository.namesTaken(tx, datasetId, split, wanted);
  const out: string[] = [];
  for (const name of wanted) {
    let pick = name;
    if (taken.has(pick)) {
      const { name: stem, ext } = path.parse(name);
      const more = await datasetsRepository.namesTaken(
        tx,
        datasetId,
        split,
        Array.from({ length: 50 }, (_, i) => `${stem}-${i + 2}${ext}`),
      );
      for (let i = 2; ; i++) {
        pick = `${stem}-${i}${ext}`;
        if (!taken.has(pick) && !more.has(pick)) break;
      }
    }
    taken.add(pick);
    out.push(pick);
  }
  return out;
}

export async function moveImages(ctx: AppContext, userId: string, datasetId: string, body: { imageIds: string[]; split: string }) {
  await editableDataset(ctx, userId, datasetId);
  return runEdit(ctx, userId, datasetId, 'images.move', async (tx, d, seq) => {
    const rows = (await rowsOf(tx, datasetId, body.imageIds)).filter((r) => r.split !== body.split);
    const names = await freeNames(
      tx,
      datasetId,
      body.split,
      rows.map((r) => r.name),
    );
    await datasetsRepository.reviseImages(
      tx,
      d,
      seq,
      rows.map((row, i) => ({ row, patch: { split: body.split, name: names[i]! } })),
      newId,
    );
    const moved = rows.map((r) => ({ ...r, split: body.split }));
    return { counts: { moved: rows.length }, stats: statsDelta(d.stats, classesOf(d), rows, moved) };
  });
}

export async function deleteImages(ctx: AppContext, userId: string, datasetId: string, body: { imageIds: string[] }) {
  await editableDataset(ctx, userId, datasetId);
  return runEdit(ctx, userId, datasetId, 'images.delete', async (tx, d, seq) => {
    const rows = await rowsOf(tx, datasetId, body.imageIds);
    const gone = await datasetsRepository.endImages(tx, d, seq, rows);
    return { counts: { deleted: rows.length }, gone, stats: statsDelta(d.stats, classesOf(d), rows, []) };
  });
}

/**
 * Copies images to a split of the same dataset (new image ids, same bytes) or to another dataset the
 * caller may edit. Same owner: the same blob, one more reference, no bytes. Another owner: the bytes
 * are copied into that owner's blobs (content addresses are never shared across owners). Labels follow
 * the classes by name: a class the target lacks is added to its class list.
 */
export async function copyImages(ctx: AppContext, userId: string, datasetId: string, body: { imageIds: string[]; split?: string; datasetId?: string }) {
  const source = await editableDataset(ctx, userId, datasetId);
  const targetId = body.datasetId ?? datasetId;
  if (targetId === datasetId && !body.split) throw errors.validation('split: a copy within the dataset goes to a split');
  const target = targetId === datasetId ? source : await editableDataset(ctx, userId, targetId);
  if (target.task !== source.task) throw errors.conflict(ErrorCode.Validation, `Images of a ${source.task} dataset cannot go to a ${target.task} dataset`);
  const rows = await rowsOf(ctx.db, datasetId, body.imageIds);
  const sameDataset = targetId === datasetId;
  const targetOwner = ownerKeyOf(target);
  // Bytes that must land in the target owner's blobs are read and stored before the transaction.
  const blobOf = new Map<string, string>(); // source row id -> target blob storage key
  if (!sameDataset) {
    const known = new Map(
      (
        await datasetsRepository.blobsByHash(
          ctx.db,
          targetOwner,
          rows.flatMap((r) => (r.sha256 ? [r.sha256] : [])),
        )
      ).map((b) => [b.sha256, b]),
    );
    for (const r of rows) {
      const have = r.sha256 ? known.get(r.sha256) : undefined;
      if (have && (r.blobKey === have.storageKey || (await ctx.blobs.head(have.storageKey)))) {
        blobOf.set(r.id, have.storageKey);
        continue;
      }
      const data = await readImageBytes(ctx, source, r);
      const b = await putBlob(ctx, targetOwner, data);
      blobOf.set(r.id, b.storageKey);
      known.set(b.sha256, { ...b, refs: 0, createdAt: new Date() });
    }
  }
  return runEdit(ctx, userId, targetId, 'images.copy', async (tx, d, seq) => {
    const srcClasses = classesOf(source);
    const classes = [...classesOf(d)];
    const mapClass = (c: number) => {
      if (sameDataset) return c;
      const name = srcClasses[c] ?? `class${c}`;
      let i = classes.indexOf(name);
      if (i < 0) i = classes.push(name) - 1;
      return i;
    };
    const split = (r: DatasetImageRow) => body.split ?? r.split;
    const inserts: Array<Parameters<typeof datasetsRepository.insertImageRows>[1][number]> = [];
    for (const s of ['train', 'val', 'test']) {
      const group = rows.filter((r) => split(r) === s);
      const names = await freeNames(
        tx,
        targetId,
        s,
        group.map((r) => r.name),
      );
      group.forEach((r, i) => {
        const id = newId();
        const storageKey = sameDataset ? r.blobKey : blobOf.get(r.id)!;
        inserts.push({
          ...r,
          id,
          imageId: id,
          datasetId: targetId,
          split: s,
          name: names[i]!,
          labels: r.labels.map((row) => [mapClass(row[0]!), ...row.slice(1)]),
          blobKey: storageKey,
          thumbKey: null,
          revFrom: seq,
          revTo: null,
          labelRev: 1,
        });
      });
    }
    if (!sameDataset) {
      for (const k of new Set(inserts.map((i) => i.blobKey!))) {
        const r = rows.find((x) => blobOf.get(x.id) === k)!;
        await datasetsRepository.ensureBlob(tx, {
          ownerKey: targetOwner,
          sha256: path.basename(k),
          storageKey: k,
          bytes: r.bytes ?? r.source.uncompressedSize,
        });
      }
    }
    await datasetsRepository.insertImageRows(tx, inserts);
    const changedClasses = classes.length !== classesOf(d).length;
    const stats = changedClasses
      ? statsOf(classes, [...(await datasetsRepository.allImages(tx, targetId))])
      : statsDelta(
          d.stats,
          classes,
          [],
          inserts.map((i) => ({ split: i.split, labels: i.labels ?? [] })),
        );
    return { counts: { copied: inserts.length }, imageIds: inserts.map((i) => i.imageId), stats, ...(changedClasses ? { classes } : {}) };
  });
}

/** A class named by index or name: its index, or 404. */
function classIndex(classes: string[], ref: number | string) {
  const i = typeof ref === 'number' ? ref : classes.indexOf(ref);
  if (i < 0 || i >= classes.length) throw errors.notFound(`Class ${JSON.stringify(ref)}`);
  return i;
}

/**
 * Rewrites every working image whose labels change under `remap` (old class id -> new id, or null to drop
 * the row); classify images whose class is dropped leave the working state. Statistics are rebuilt.
 */
async function rewriteClasses(
  tx: Db,
  d: DatasetRow,
  seq: number,
  classes: string[],
  remap: (c: number) => number | null,
  classNameOf: (row: DatasetImageRow) => string | null,
) {
  const all = await datasetsRepository.allImages(tx, d.id);
  const changes: Array<{ row: DatasetImageRow; patch: { labels: number[][]; className: string | null; labelRev: number } }> = [];
  const ended: DatasetImageRow[] = [];
  const after: Array<{ split: string; labels: number[][] }> = [];
  for (const row of all) {
    const labels = row.labels.flatMap((r) => {
      const c = remap(r[0]!);
      return c === null ? [] : [[c, ...r.slice(1)]];
    });
    const className = classNameOf(row);
    if (d.task === 'classify' && row.labels.length && !labels.length) {
      ended.push(row);
      continue;
    }
    after.push({ split: row.split, labels });
    if (JSON.stringify(labels) !== JSON.stringify(row.labels) || className !== row.className)
      changes.push({ row, patch: { labels, className, labelRev: row.labelRev + 1 } });
  }
  await datasetsRepository.reviseImages(tx, d, seq, changes, newId);
  const gone = await datasetsRepository.endImages(tx, d, seq, ended);
  return { relabelled: changes.length, removed: ended.length, gone, stats: statsOf(classes, after) };
}

export async function renameClass(ctx: AppContext, userId: string, datasetId: string, body: { from: number | string; to: string }) {
  await editableDataset(ctx, userId, datasetId);
  return runEdit(ctx, userId, datasetId, 'classes.rename', async (tx, d, seq) => {
    const classes = [...classesOf(d)];
    const i = classIndex(classes, body.from);
    if (classes.includes(body.to) && classes[i] !== body.to)
      throw errors.conflict(ErrorCode.InUse, `A class named ${JSON.stringify(body.to)} exists: merge into it instead`);
    const old = classes[i]!;
    classes[i] = body.to;
    // Labels hold class ids, so only classify images (which name their class) change.
    const r = await rewriteClasses(
      tx,
      d,
      seq,
      classes,
      (c) => c,
      (row) => (row.className === old ? body.to : row.className),
    );
    return { counts: { renamed: 1, relabelled: r.relabelled }, classes, stats: r.stats, gone: r.gone };
  });
}

export async function mergeClasses(ctx: AppContext, userId: string, datasetId: string, body: { from: Array<number | string>; into: number | string }) {
  await editableDataset(ctx, userId, datasetId);
  return runEdit(ctx, userId, datasetId, 'classes.merge', async (tx, d, seq) => {
    const old = classesOf(d);
    const into = classIndex(old, body.into);
    const from = new Set(body.from.map((f) => classIndex(old, f)));
    from.delete(into);
    const classes = old.filter((_, i) => !from.has(i));
    const newIndex = (c: number) => classes.indexOf(old[from.has(c) ? into : c]!);
    const r = await rewriteClasses(tx, d, seq, classes, newIndex, (row) =>
      row.className !== null && [...from].some((f) => old[f] === row.className) ? old[into]! : row.className,
    );
    return { counts: { merged: from.size, relabelled: r.relabelled }, classes, stats: r.stats, gone: r.gone };
  });
}

export async function deleteClass(ctx: AppContext, userId: string, datasetId: string, body: { class: number | string; labels: 'remove' }) {
  await editableDataset(ctx, userId, datasetId);
  return runEdit(ctx, userId, datasetId, 'classes.delete', async (tx, d, seq) => {
    const old = classesOf(d);
    const gone = classIndex(old, body.class);
    const classes = old.filter((_, i) => i !== gone);
    const r = await rewriteClasses(
      tx,
      d,
      seq,
      classes,
      (c) => (c === gone ? null : c > gone ? c - 1 : c),
      (row) => row.className,
    );
    return { counts: { deleted: 1, relabelled: r.relabelled, imagesRemoved: r.removed }, classes, stats: r.stats, gone: r.gone };
  });
}

// ---- labels of one image -------------------------------------------------------------------------------

const present = (row: DatasetImageRow): ImageLabels => ({ imageId: row.imageId, revision: row.labelRev, labels: row.labels, className: row.className });

export async function imageLabels(ctx: AppContext, viewerId: string | null, datasetId: string, imageId: string) {
  const d = await datasetsPolicy.read(ctx, viewerId, await datasetsRepository.byId(ctx.db, datasetId));
  if (d.deletedAt) throw errors.notFound('Dataset');
  const row = await datasetsRepository.image(ctx.db, datasetId, imageId);
  if (!row) throw errors.notFound('Image');
  return present(row);
}

/**
 * Writes one image's labels when `revision` is still the image's (else 409 LABELS_CONFLICT with the
 * current labels), checked with the upload rules (contracts dataset-layout): a bad row is a 422 naming
 * its index.
 */
export async function putImageLabels(
  ctx: AppContext,
  userId: string,
  datasetId: string,
  imageId: string,
  body: { revision: number; labels: number[][]; className?: string | null },
) {
  await editableDataset(ctx, userId, datasetId, 'label');
  const out = await runEdit(ctx, userId, datasetId, 'labels.update', async (tx, d, seq) => {
    const row = await datasetsRepository.image(tx, datasetId, imageId);
    if (!row) throw errors.notFound('Image');
    if (row.labelRev !== body.revision)
      throw new AppError(409, ErrorCode.LabelsConflict, `These labels changed since revision ${body.revision}: reload them (now revision ${row.labelRev})`, {
        current: present(row),
      });
    const classes = classesOf(d);
    let labels: number[][];
    let className = row.className;
    if (d.task === 'classify') {
      const name = body.className ?? row.className;
      const i = name === null ? -1 : classes.indexOf(name);
      if (i < 0) throw new AppError(422, ErrorCode.Validation, `className: ${JSON.stringify(name)} is not a class of this dataset`);
      labels = [[i]];
      className = name;
    } else {
      labels = checkedLabels(d.task, classes.length, body.labels, row.labels);
    }
    const revision = row.labelRev + 1;
    await datasetsRepository.reviseImages(tx, d, seq, [{ row, patch: { labels, className, labelRev: revision } }], newId);
    return {
      counts: { relabelled: 1 },
      stats: statsDelta(d.stats, classes, [row], [{ split: row.split, labels }]),
      result: { imageId, revision, labels, className } satisfies ImageLabels,
    };
  });
  await ctx.events.emit('dataset.labels.updated', out.dataset.userId, { datasetId, imageId, revision: out.result.revision, seq: out.seq, actorId: userId });
  return out.result;
}

/** Label rows checked by the upload's rules (the same parser reads them as a label file). */
function checkedLabels(task: string, nc: number, rows: number[][], before: number[][]): number[][] {
  const kpt = task === 'pose' ? poseShape(rows[0] ?? before[0]) : null;
  const schema = { task: (task === 'semantic-segment' ? 'segment' : task) as 'detect', nc, kptShape: kpt };
  rows.forEach((r, i) => {
    const one = parseLabelFile(r.join(' '), 'labels', schema);
    const bad = one.issues.find((x) => x.severity === 'error');
    if (bad) throw new AppError(422, ErrorCode.Validation, `labels[${i}]: ${bad.message}`, { row: i, code: bad.code });
  });
  return parseLabelFile(rows.map((r) => r.join(' ')).join('\n'), 'labels', schema).rows as number[][];
}

function poseShape(row: number[] | undefined): [number, number] | null {
  if (!row || row.length <= 5) return null;
  const rest = row.length - 5;
  return rest % 3 === 0 ? [rest / 3, 3] : [rest / 2, 2];
}

// ---- adding images -------------------------------------------------------------------------------------

export type { AddedFile } from './datasets.added-files.js';

/**
 * Adds images to a split: single image files, `.txt` labels with the same stem, and zips of either
 * (folders inside are ignored: pairs go by stem). They are checked in memory by the upload's own rules
 * (datasets.added-files.ts: the layout an upload of them would have, with the dataset's class list,
 * then each pair as processing checks it), so the rules and the report are an upload's; what passes is
 * stored content-addressed in the owner's blobs (bytes the owner has already cost nothing) and
 * inserted in one edit. `checked` is the dataset row when the caller has just checked it (the route
 * does, before reading the body).
 */
export async function addImages(
  ctx: AppContext,
  user: { id: string; plan: string },
  datasetId: string,
  input: { split: 'train' | 'val' | 'test'; className?: string; files: AddedFile[] },
  checked?: DatasetRow,
) {
  const d = checked ?? (await editableDataset(ctx, user.id, datasetId, 'label'));
  const classes = classesOf(d);
  const task = (d.task === 'semantic-segment' ? 'segment' : d.task) as DatasetTask;
  const pairs = await collectPairs(input.files);
  if (!pairs.size) throw errors.validation('files: send images (.jpg, .png, ...), their .txt labels, or zips of them');
  if (task === 'classify' && (!input.className || !classes.includes(input.className)))
    throw errors.validation(`className: name one of this dataset's classes (${classes.join(', ')})`);
  const checkedPairs = await checkPairs(task, classes, input.className ?? null, pairs);
  const found = checkedPairs.images.map((f) => ({ ...f, sha256: sha256Of(f.data) }));
  // Findings about the archive's shape (it has one split by construction) say nothing of these files.
  const report = storableJson(withoutLayoutNotes(checkedPairs.report));
  if (!found.length) return { added: 0, report, seq: d.seq, classes, counts: { added: 0 }, imageIds: [] as string[] };

  // Only bytes the owner does not hold yet count against the storage left.
  const ownerKey = ownerKeyOf(d);
  const held = new Set((await datasetsRepository.blobsByHash(ctx.db, ownerKey, [...new Set(found.map((f) => f.sha256))])).map((b) => b.sha256));
  const fresh = new Map(found.filter((f) => !held.has(f.sha256)).map((f) => [f.sha256, f.data.length]));
  if (fresh.size)
    await assertStorage(
      ctx,
      user,
      [...fresh.values()].reduce((a, b) => a + b, 0),
    );
  const blobs = await storeBlobs(ctx, ownerKey, found, held);

  const out = await runEdit(ctx, user.id, datasetId, 'images.add', async (tx, locked, seq) => {
    const names = await freeNames(
      tx,
      datasetId,
      input.split,
      found.map((f) => f.name),
    );
    const rows = found.map((f, i) => {
      const id = newId();
      return {
        id,
        imageId: id,
        datasetId,
        split: input.split,
        name: names[i]!,
        entryName: names[i]!,
        width: f.width,
        height: f.height,
        format: f.format,
        className: task === 'classify' ? input.className! : null,
        labels: f.labels,
        source: { dataOffset: 0, compressedSize: f.data.length, uncompressedSize: f.data.length, compressionMethod: 0, format: 'blob' },
        thumbKey: null,
        revFrom: seq,
        sha256: f.sha256,
        bytes: f.data.length,
        blobKey: blobs.get(f.sha256)!.storageKey,
      };
    });
    await datasetsRepository.insertImagesWithBlobs(tx, [...blobs.values()], rows);
    return { counts: { added: rows.length }, imageIds: rows.map((r) => r.imageId), stats: statsDelta(locked.stats, classesOf(locked), [], rows) };
  });
  return { added: found.length, report, seq: out.seq, classes: out.classes, counts: out.counts, imageIds: out.imageIds ?? [] };
}

/**
 * The added images' bytes in the owner's blobs, a few writes at a time: one lookup of the hashes the
 * owner holds (`held`, made once for the storage check) instead of one per image; a held blob whose
 * file is missing is written again, as putBlob does.
 */
async function storeBlobs(ctx: AppContext, ownerKey: string, found: Array<{ sha256: string; data: Buffer }>, held: Set<string>) {
  const unique = [...new Map(found.map((f) => [f.sha256, f.data])).entries()];
  const blobs = new Map<string, { ownerKey: string; sha256: string; storageKey: string; bytes: number }>();
  let next = 0;
  const worker = async () => {
    while (next < unique.length) {
      const [sha256, data] = unique[next++]!;
      const storageKey = blobKeys.datasetBlob(ownerKey, sha256);
      if (!(held.has(sha256) && (await ctx.blobs.head(storageKey)))) await ctx.blobs.put(storageKey, data, { contentLength: data.length });
      blobs.set(sha256, { ownerKey, sha256, storageKey, bytes: data.length });
    }
  };
  await Promise.all(Array.from({ length: Math.min(BLOB_WRITES, unique.length) }, worker));
  return blobs;
}
const BLOB_WRITES = 8;

const LAYOUT_NOTES = new Set(['dataset/no-test', 'dataset/no-val', 'dataset/missing-val', 'yaml/no-val']);
function withoutLayoutNotes<R extends { warnings: Array<{ code: string; file?: string }>; warningCount: number; countsByCode: Record<string, number> }>(
  report: R,
): R {
  const drop = (w: { code: string; file?: string }) => LAYOUT_NOTES.has(w.code) || !!w.file?.startsWith('images/val/');
  const dropped = report.warnings.filter(drop);
  const countsByCode = { ...report.countsByCode };
  for (const w of dropped) if (countsByCode[w.code] !== undefined && --countsByCode[w.code]! <= 0) delete countsByCode[w.code];
  return { ...report, warnings: report.warnings.filter((w) => !drop(w)), warningCount: report.warningCount - dropped.length, countsByCode };
}

/**
 * Accepted suggestions (ADR 0039): label rows added to each image's labels (classify: its class set),
 * all in one edit, each image's revision + 1; `also` runs in the same transaction (the suggestions are
 * marked there, so they and the labels change together). Needs `label` on the dataset.
 */
export async function appendImageLabels(
  ctx: AppContext,
  userId: string,
  datasetId: string,
  additions: (tx: Db) => Promise<Array<{ imageId: string; labels: number[][]; className: string | null }>>,
  also: (tx: Db) => Promise<void>,
) {
  const d0 = await datasetsPolicy.act(ctx, userId, await datasetsRepository.byId(ctx.db, datasetId), 'label');
  if (!d0.processedAt || d0.status !== 'Ready') throw errors.conflict(ErrorCode.DatasetNotReady, 'Edit a dataset once it is processed (Ready)');
  const out = await runEdit(ctx, userId, datasetId, 'labels.update', async (tx, d, seq) => {
    const adds = (await additions(tx)).filter((a) => a.labels.length || a.className);
    const rows = new Map((await datasetsRepository.workingByImageIds(tx, datasetId, [...new Set(adds.map((a) => a.imageId))])).map((r) => [r.imageId, r]));
    const changes: Array<{ row: DatasetImageRow; patch: Partial<DatasetImageRow> }> = [];
    const images: Array<{ imageId: string; revision: number }> = [];
    for (const a of adds) {
      const row = rows.get(a.imageId);
      if (!row) continue; // deleted since it was suggested
      const revision = row.labelRev + 1;
      changes.push({ row, patch: { labels: [...row.labels, ...a.labels], className: a.className ?? row.className, labelRev: revision } });
      images.push({ imageId: a.imageId, revision });
    }
    await datasetsRepository.reviseImages(tx, d, seq, changes, newId);
    await also(tx);
    const classes = classesOf(d);
    return {
      counts: { relabelled: images.length },
      stats: statsDelta(
        d.stats,
        classes,
        changes.map((c) => c.row),
        changes.map((c) => ({ split: c.row.split, labels: c.patch.labels!, className: c.patch.className ?? null })),
      ),
      result: images,
    };
  });
  return { seq: out.seq, images: out.result, dataset: out.dataset };
}
