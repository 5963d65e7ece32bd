import path from 'node:path';
import zlib from 'node:zlib';
import yauzl from 'yauzl';
import {
  decodeLabelText,
  detectLayout,
  indexEntries,
  issue,
  labelNotText,
  ProcessingCode,
  resolveLayout,
  type LabelRow,
  type PairLabel,
} from '@sightline/contracts/dataset-layout';
import { errors } from '../../platform/http/errors.js';
import {
  checkImage,
  DEFAULT_PROCESSING_LIMITS,
  isProcessingError,
  parseDatasetYaml,
  ReportBuilder,
  taskMismatchHint,
  type DatasetTask,
} from './processing/index.js';

/**
 * The files of an "add images" request (ADR 0037, 0038), read and checked in memory: the sent zips are
 * listed from the request's bytes (no scratch file), and the pairs go through the upload's own rules —
 * the layout an upload of them would have (`images/train/<name>` + `labels/train/<stem>.txt`, or
 * `train/<class>/<name>`, with a yaml naming the dataset's classes), then per pair the byte-level image
 * rule (`inspectImageBytes`, headers only: no decode), `verifyImageLabel` and the task hint — the same
 * functions `processArchive` calls on the same bytes, so the report is an upload's. Nothing is written
 * to disk here.
 */

export type AddedFile = { filename: string; data: Buffer };
export type Pair = { image?: { name: string; data: Buffer }; label?: Buffer };
export type CheckedImage = { name: string; width: number | null; height: number | null; format: string | null; labels: LabelRow[]; data: Buffer };

export const IMAGE_EXT = /\.(jpe?g|png|webp|bmp|tiff?|gif|heic|dng|mpo|pfm)$/i;
const limits = DEFAULT_PROCESSING_LIMITS;

/** Images and labels by stem, from the files and from the entries of zips among them (folders ignored). */
export async function collectPairs(files: AddedFile[]) {
  const pairs = new Map<string, Pair>();
  const put = (name: string, data: Buffer) => {
    const base = path.posix.basename(name.replace(/\\/g, '/'));
    const { name: stem, ext } = path.parse(base);
    if (!stem || base.startsWith('.')) return;
    const p = pairs.get(stem) ?? {};
    if (IMAGE_EXT.test(base)) p.image = { name: base, data };
    else if (ext.toLowerCase() === '.txt') p.label = data;
    else return;
    pairs.set(stem, p);
  };
  for (const f of files) {
    if (!/\.zip$/i.test(f.filename)) {
      put(f.filename, f.data);
      continue;
    }
    try {
      for (const e of await zipEntries(f.data)) put(e.name, e.data);
    } catch (err) {
      throw errors.validation(`${f.filename}: not a zip this server can read (${(err as Error).message})`);
    }
  }
  for (const [stem, p] of pairs) if (!p.image) pairs.delete(stem); // a label without its image adds nothing
  return pairs;
}

/**
 * The image and label entries of a zip held in memory, each verified as the upload's reader verifies
 * it (declared sizes, the compression-ratio and size limits, CRC-32); directories, links, encrypted
 * entries and unknown compression methods are skipped, as before.
 */
async function zipEntries(buf: Buffer): Promise<Array<{ name: string; data: Buffer }>> {
  // yauzl lists the central directory (zip64, name encodings, path checks); the bytes are read here.
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true, decodeStrings: true, validateEntrySizes: true, strictFileNames: false }, (err, z) =>
      err ? reject(err) : resolve(z),
    ),
  );
  const out: Array<{ name: string; data: Buffer }> = [];
  const seen = new Set<string>();
  let total = 0;
  try {
    for (;;) {
      const e = await new Promise<yauzl.Entry | null>((resolve, reject) => {
        const onEntry = (entry: yauzl.Entry) => done(null, entry);
        const onEnd = () => done(null, null);
        const onError = (err: Error) => done(err, null);
        const done = (err: Error | null, entry: yauzl.Entry | null) => {
          zip.off('entry', onEntry).off('end', onEnd).off('error', onError);
          if (err) reject(err);
          else resolve(entry);
        };
        zip.on('entry', onEntry).on('end', onEnd).on('error', onError);
        zip.readEntry();
      });
      if (!e) break;
      const name = e.fileName.replace(/\\/g, '/');
      if (seen.has(name)) throw new Error(`${name} is in the archive twice`);
      seen.add(name);
      const mode = (e.externalFileAttributes >>> 16) & 0o170000;
      const isLink = mode === 0o120000;
      if (name.endsWith('/') || isLink || (e.generalPurposeBitFlag & 1) !== 0 || ![0, 8].includes(e.compressionMethod)) continue;
      if (!(IMAGE_EXT.test(name) || /\.txt$/i.test(name))) continue;
      if (e.uncompressedSize > limits.maxImageBytes) throw new Error(`${name} declares ${e.uncompressedSize} bytes; the limit is ${limits.maxImageBytes}`);
      total += e.uncompressedSize;
      if (total > limits.maxTotalUncompressedBytes) throw new Error(`the archive holds more than ${limits.maxTotalUncompressedBytes} bytes`);
      if (e.uncompressedSize > limits.ratioCheckMinBytes && e.uncompressedSize > Math.max(1, e.compressedSize) * limits.maxCompressionRatio)
        throw new Error(`${name} expands ${Math.round(e.uncompressedSize / Math.max(1, e.compressedSize))}× (a zip bomb?)`);
      // The entry's bytes where they lie in the request's buffer (a stored image is not copied).
      const at = e.relativeOffsetOfLocalHeader;
      if (at + 30 > buf.length || buf.readUInt32LE(at) !== 0x04034b50) throw new Error(`${name}: no local header where the directory says`);
      const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
      const raw = buf.subarray(start, start + e.compressedSize);
      if (raw.length !== e.compressedSize) throw new Error(`${name} is cut short`);
      const data = e.compressionMethod === 0 ? raw : zlib.inflateRawSync(raw, { maxOutputLength: e.uncompressedSize + 1 });
      if (data.length !== e.uncompressedSize) throw new Error(`${name} holds ${data.length} bytes, its header says ${e.uncompressedSize}`);
      if (zlib.crc32(data) >>> 0 !== e.crc32 >>> 0) throw new Error(`${name}: its bytes do not match their CRC-32`);
      out.push({ name, data });
    }
  } finally {
    zip.close();
  }
  return out;
}

/**
 * The pairs checked with the upload's rules, as the archive an upload of them would be. `images` are
 * the pairs that passed, with their labels (classify: the class's index in `classes`); the report is
 * the upload's for that archive.
 */
export async function checkPairs(task: DatasetTask, classes: string[], className: string | null, pairs: Map<string, Pair>) {
  const report = new ReportBuilder(1000);
  const images: CheckedImage[] = [];
  const bytes = new Map<string, Buffer>();
  const entries: Array<{ name: string; isDirectory: boolean }> = [];
  const add = (name: string, data: Buffer) => {
    bytes.set(name, data);
    entries.push({ name, isDirectory: false });
  };
  for (const [stem, p] of pairs) {
    if (task === 'classify') add(`train/${className}/${p.image!.name}`, p.image!.data);
    else {
      add(`images/train/${p.image!.name}`, p.image!.data);
      if (p.label) add(`labels/train/${stem}.txt`, p.label);
    }
  }
  // As the upload of them would be laid out: ultralytics' layout asks for a val folder, so it lists a
  // copy of the first image there (only listed: the val split is not checked, it holds no added file).
  const yamlFile = 'data.yaml';
  const yaml = `train: images/train\nval: images/val\nnc: ${classes.length}\nnames:\n${classes.map((c, i) => `  ${i}: ${JSON.stringify(c)}`).join('\n')}\n`;
  if (task !== 'classify')
    entries.push({ name: `images/val/${[...pairs.values()][0]!.image!.name}`, isDirectory: false }, { name: yamlFile, isDirectory: false });
  const order = new Map(entries.map((e, i) => [e.name, i]));
  try {
    const index = indexEntries(entries);
    const detected = detectLayout(index, { task });
    if (!detected.ok) throw fatal(detected.error);
    let names: string[] = [];
    let kptShape: [number, number] | null = null;
    let yamlPaths;
    if (detected.layout.yamlPath) {
      const parsed = parseDatasetYaml(yaml, { file: yamlFile, task });
      if (!parsed.config) throw fatal(parsed.issues.find((i) => i.severity === 'error') ?? { code: ProcessingCode.YamlInvalid, message: 'data.yaml' });
      report.add(parsed.issues);
      names = parsed.config.names;
      yamlPaths = parsed.config.splits;
      kptShape = parsed.config.kptShape;
    }
    const resolved = resolveLayout(index, detected.layout, yamlPaths);
    if (!resolved.ok) throw fatal(resolved.error);
    const dataset = resolved.layout;
    report.add(dataset.issues);
    if (dataset.kind === 'classify') names = dataset.classNames ?? [];
    const schema = { task, nc: names.length, kptShape };
    const shapes = { boxes: 0, polygons: 0, other: 0 };
    let usableTrain = 0;
    let sawTrain = false;
    // In the order sent (the upload's pass goes in archive order).
    const train = [...(dataset.splits.train?.images ?? [])].sort((a, b) => order.get(a.entry)! - order.get(b.entry)!);
    for (const image of train) {
      sawTrain = true;
      const data = bytes.get(image.entry)!;
      const label = image.classIndex !== null ? null : labelOf(image.label, image.label ? bytes.get(image.label) : undefined);
      if (data.length > limits.maxImageBytes) {
        report.leave({
          image: image.entry,
          code: ProcessingCode.ImageTooLarge,
          message: `The image is ${data.length} bytes; the limit is ${limits.maxImageBytes}.`,
          file: image.entry,
        });
        continue;
      }
      const { verdict, width, height, pair } = await checkImage(data, image.entry, label, schema, shapes);
      if (!pair.keep) {
        report.leave(pair.leftOut!);
        continue;
      }
      report.add(pair.warnings);
      usableTrain++;
      const labels = task === 'classify' ? [[classes.indexOf(className!)]] : pair.rows;
      images.push({ name: image.name, width, height, format: verdict.format, labels, data });
    }
    const hint = taskMismatchHint(task, shapes);
    if (hint) report.addFirst(hint);
    else if (usableTrain === 0 && sawTrain && report.leftOutTotal > 0) {
      const left = report.leftOutTotal;
      images.length = 0;
      throw fatal({
        code: ProcessingCode.NothingUsable,
        message: `None of the train images can be used: all ${left} ${left === 1 ? 'pair was' : 'pairs were'} left out (see the list of left-out images for why).`,
      });
    }
  } catch (err) {
    if (!(err instanceof Fatal) && !isProcessingError(err)) throw err;
    const f = err as { code: string; message: string; file?: string };
    images.length = 0;
    report.addFirst(issue('error', f.code, f.message, f.file));
  }
  return { images, report: report.toReport() };
}

class Fatal extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly file?: string,
  ) {
    super(message);
  }
}
const fatal = (e: { code: string; message: string; file?: string }) => new Fatal(e.code, e.message, e.file);

/** The label side of a pair, as `processArchive` hands it to `verifyImageLabel`. */
function labelOf(file: string | null | undefined, data: Buffer | undefined): PairLabel {
  if (!file || !data) return null;
  if (data.length > limits.maxTextBytes)
    return {
      file,
      problem: issue(
        'error',
        ProcessingCode.LabelTooLarge,
        `The label file is larger than ${limits.maxTextBytes} bytes; label files hold a few lines of numbers.`,
        file,
      ),
    };
  const text = decodeLabelText(data);
  return text === null ? { file, problem: labelNotText(file) } : { file, text };
}
