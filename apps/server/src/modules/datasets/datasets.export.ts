import { PassThrough, type Readable } from 'node:stream';
import { ErrorCode } from '@sightline/contracts';
import yazl from 'yazl';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { datasetsRepository, type DatasetImageRow, type DatasetRow } from './datasets.repository.js';
import { openImage } from './datasets.image-source.js';

const PAGE = 1000;
const building = new Map<string, Promise<{ key: string; bytes: number }>>();

/** File name of the normalized archive: `<slug>.zip` holding `<slug>/data.yaml`, as HUB clients expect. */
export const normalizedZipName = (row: DatasetRow) => `${row.slug}.zip`;
// The edit sequence is part of the name (ADR 0037): an edit makes the next download build again.
const normalizedKey = (row: DatasetRow) =>
  `${blobKeys.datasetNormalized(row.userId, row.id)}${row.processedAt!.getTime()}-${row.seq}-${normalizedZipName(row)}`;

/**
 * The dataset in the one layout every ultralytics client accepts, whatever the user uploaded
 * (flat, one top folder, Roboflow's train/valid/test, classify folders): built once from the
 * processed image index — original bytes out of the uploaded archive, labels from the rows — and
 * kept in the blob store until the dataset is processed again.
 */
export async function ensureNormalizedZip(ctx: AppContext, row: DatasetRow): Promise<{ key: string; bytes: number }> {
  if (!row.processedAt || !row.storageKey) throw errors.conflict(ErrorCode.DatasetNotReady, 'This dataset is not processed yet');
  const key = normalizedKey(row);
  const head = await ctx.blobs.head(key);
  if (head) return { key, bytes: head.bytes };
  let pending = building.get(key);
  if (!pending) {
    pending = build(ctx, row, key).finally(() => building.delete(key));
    building.set(key, pending);
  }
  return pending;
}

async function build(ctx: AppContext, row: DatasetRow, key: string) {
  // Older normalized copies of this dataset are dropped first.
  await ctx.blobs.deletePrefix(blobKeys.datasetNormalized(row.userId, row.id));
  const stats = row.stats as { summary?: { classes?: string[] } } | null;
  const classes = row.classes ?? stats?.summary?.classes ?? [];
  const stem = row.slug;
  const zip = new yazl.ZipFile();
  const splitsSeen = new Set<string>();

  // Pages of the index are read as the zip is written, so memory does not grow with the dataset.
  const addImages = async () => {
    for (let after: { split: string; name: string; imageId: string } | null = null; ;) {
      const rows = await datasetsRepository.images(ctx.db, row.id, { after, limit: PAGE });
      if (rows.length === 0) break;
      const last = rows.at(-1)!;
      after = { split: last.split, name: last.name, imageId: last.imageId };
      for (const img of rows) {
        splitsSeen.add(img.split);
        const folder = row.task === 'classify' ? `${stem}/${img.split}/${img.className ?? 'unknown'}` : `${stem}/images/${img.split}`;
        zip.addReadStreamLazy(`${folder}/${img.name}`, { compress: false }, (cb) => {
          openImage(ctx, row, img).then(
            (s) => cb(null, s),
            (err: Error) => cb(err, undefined as unknown as Readable),
          );
        });
        if (row.task !== 'classify') {
          const base = img.name.replace(/\.[^.]+$/, '');
          zip.addBuffer(Buffer.from(labelText(img)), `${stem}/labels/${img.split}/${base}.txt`);
        }
      }
      if (rows.length < PAGE) break;
    }
    if (row.task !== 'classify') zip.addBuffer(Buffer.from(dataYaml(classes, splitsSeen)), `${stem}/data.yaml`);
    zip.end();
  };
  const out = new PassThrough();
  zip.outputStream.pipe(out);
  const [, put] = await Promise.all([addImages(), ctx.blobs.put(key, out, { contentType: 'application/zip' })]);
  return { key, bytes: put.bytes };
}

/** YOLO label text from the stored rows (`cls x y …`, normalized coordinates). */
export function labelText(img: Pick<DatasetImageRow, 'labels'>): string {
  return (
    img.labels.map((r) => [String(r[0]), ...r.slice(1).map((v) => (Math.round(v * 1e6) / 1e6).toString())].join(' ')).join('\n') +
    (img.labels.length ? '\n' : '')
  );
}

export function dataYaml(classes: string[], splits: Set<string>): string {
  const lines = [`train: images/train`];
  // ultralytics needs a val split; a dataset without one validates on train (the processing report warned).
  lines.push(`val: images/${splits.has('val') ? 'val' : 'train'}`);
  if (splits.has('test')) lines.push('test: images/test');
  lines.push(`nc: ${classes.length}`, 'names:');
  classes.forEach((c, i) => lines.push(`  ${i}: ${JSON.stringify(c)}`));
  return `${lines.join('\n')}\n`;
}
