import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';

/**
 * A dataset version as a YOLO zip whose bytes depend on its content only (ADR 0038): entries sorted
 * by path, one fixed modification time in DOS fields only (no extended timestamp, so the machine's
 * time zone does not show), every entry stored (no compressor whose output could change between zlib
 * versions; images are compressed already), data.yaml included. Identical content gives identical
 * bytes, so a version's zip can be checked against an earlier download.
 */
export interface ZipImage {
  id: string;
  imageId: string;
  name: string;
  split: string;
  className: string | null;
  labels: number[][];
  bytes: number | null;
}

/** 2000-01-01 00:00 in local time: its DOS date and time fields are the same on every machine. */
const FIXED_MTIME = new Date(2000, 0, 1, 0, 0, 0);
const ENTRY = { mtime: FIXED_MTIME, forceDosTimestamp: true, compress: false, mode: 0o100644 } as const;

/** YOLO label text from stored rows (`cls x y …`, normalized coordinates, 6 decimals). */
export function labelText(labels: number[][]): string {
  return labels.map((r) => [String(r[0]), ...r.slice(1).map((v) => (Math.round(v * 1e6) / 1e6).toString())].join(' ')).join('\n') + (labels.length ? '\n' : '');
}

export function dataYaml(classes: string[], splits: Set<string>): string {
  const lines = ['train: images/train'];
  // ultralytics needs a val split; a dataset without one validates on train (the processing report warned).
  lines.push(`val: images/${splits.has('val') ? 'val' : 'train'}`);
  if (splits.has('test')) lines.push('test: images/test');
  lines.push(`nc: ${classes.length}`, 'names:');
  classes.forEach((c, i) => lines.push(`  ${i}: ${JSON.stringify(c)}`));
  return `${lines.join('\n')}\n`;
}

type Entry = { path: string; buffer?: Buffer; image?: ZipImage };

/** Every entry of the zip, sorted by path; two images with one name in one split keep both (the later is prefixed by its id). */
export function zipEntries(root: string, task: string, classes: string[], images: ZipImage[]): Entry[] {
  const entries: Entry[] = [];
  const splits = new Set<string>();
  const taken = new Set<string>();
  const sorted = [...images].sort((a, b) => a.split.localeCompare(b.split) || a.name.localeCompare(b.name) || a.imageId.localeCompare(b.imageId));
  for (const img of sorted) {
    splits.add(img.split);
    const folder = task === 'classify' ? `${root}/${img.split}/${img.className ?? 'unknown'}` : `${root}/images/${img.split}`;
    let name = img.name;
    if (taken.has(`${folder}/${name}`)) name = `${img.imageId}_${name}`;
    taken.add(`${folder}/${name}`);
    entries.push({ path: `${folder}/${name}`, image: img });
    if (task !== 'classify')
      entries.push({ path: `${root}/labels/${img.split}/${name.replace(/\.[^.]+$/, '')}.txt`, buffer: Buffer.from(labelText(img.labels)) });
  }
  if (task !== 'classify') entries.push({ path: `${root}/data.yaml`, buffer: Buffer.from(dataYaml(classes, splits)) });
  return entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Streams the zip; image bytes are opened one at a time as the zip reaches them (`open`), so memory
 * does not grow with the dataset. `size` is the zip's length when every image's byte count is known.
 */
export function versionZip(
  root: string,
  task: string,
  classes: string[],
  images: ZipImage[],
  open: (img: ZipImage) => Promise<Readable>,
): { stream: Readable; size: Promise<number | null> } {
  const zip = new yazl.ZipFile();
  for (const e of zipEntries(root, task, classes, images)) {
    if (e.buffer) zip.addBuffer(e.buffer, e.path, ENTRY);
    else {
      const img = e.image!;
      zip.addReadStreamLazy(e.path, { ...ENTRY, ...(img.bytes !== null ? { size: img.bytes } : {}) }, (cb) => {
        open(img).then(
          (s) => cb(null, s),
          (err: Error) => cb(err, undefined as unknown as Readable),
        );
      });
    }
  }
  const size = new Promise<number | null>((resolve) => {
    (zip.end as (o: object, cb: (n: number) => void) => void)({}, (n: number) => resolve(n >= 0 ? n : null));
  });
  const out = new PassThrough();
  zip.outputStream.on('error', (err) => out.destroy(err));
  zip.outputStream.pipe(out);
  return { stream: out, size };
}
