/**
 * Processes one uploaded dataset archive: list it, work out its layout, check the yaml, then go through
 * every image once (reading its label file beside it) to check labels and images, gather statistics
 * and hand each image to the caller. No HTTP, no database: the caller stores what `onImage` gives it.
 *
 * The archive is read sequentially: first the label files (small, kept until their image comes), then
 * the images in archive order, in large reads with no per-entry re-open. Memory stays flat whatever the
 * archive's size: the peak is the listing's columns (no object per entry, ADR 0042), the label bytes, a
 * read window and `concurrency` images.
 * Thumbnails are not made here (see `thumbnails.ts`): the dataset is usable before they exist.
 */
import {
  DEFAULT_ARCHIVE_LIMITS,
  openArchive,
  type ArchiveEntries,
  type ArchiveLimits,
  type ArchiveReader,
  type EntrySource,
  type SequentialRead,
} from './archive.js';
import { DatasetProcessingError, isProcessingError, ProcessingCode } from './errors.js';
import { makeThumbnail, probeImage } from './images.js';
import {
  decodeLabelText,
  inspectImageBytes,
  labelNotText,
  sampleOf,
  verifyImageLabel,
  type ImageVerdict,
  type PairLabel,
} from '@sightline/contracts/dataset-layout';
import {
  detectLayout,
  findFile,
  indexEntries,
  resolveLayoutPositions,
  summarizeLayout,
  taskFromLayout,
  type LayoutEntryTable,
  type LayoutSummary,
  type YamlSplitPaths,
} from './layout.js';
import { basename, extname, isJunk } from './paths.js';
import { forEachPooled, machineParallelism } from './pool.js';
import { StatsAccumulator, type DatasetStats } from './stats.js';
import { DATASET_TASKS, issue, SPLITS, type DatasetTask, type Issue, type LabelRow, type ReportEntry, type Split } from './types.js';
import { MAX_YAML_CHARS, parseDatasetYaml, ReportBuilder, taskMismatchHint, type LabelSchema, type ParsedLabels, type ProcessingReport } from './validate.js';

export { makeThumbnail };

export interface ProcessingLimits extends ArchiveLimits {
  /** Largest single image; images are held in memory one at a time (times `concurrency`). */
  maxImageBytes: number;
  /** Largest label or yaml file. */
  maxTextBytes: number;
}

export const DEFAULT_PROCESSING_LIMITS: ProcessingLimits = {
  ...DEFAULT_ARCHIVE_LIMITS,
  maxImageBytes: 128 * 1024 * 1024,
  maxTextBytes: 16 * 1024 * 1024,
};

export interface ProcessingProgress {
  /** `listing` the archive, `checking` its structure and yaml, `images` one by one, then `done`. */
  phase: 'listing' | 'checking' | 'images' | 'done';
  /** Images handled so far and in all (0 before the `images` phase). */
  done: number;
  total: number;
  /** Uncompressed image bytes handled so far and in all. */
  bytesDone: number;
  bytesTotal: number;
}

/** One checked image, handed to `onImage`. */
export interface ProcessedImage {
  split: Split;
  /** File name inside its split (no folders). */
  name: string;
  /** Archive entry name of the image. */
  entryName: string;
  /** Displayed size (EXIF orientation applied); null only for formats we cannot read (`image/unverified`). */
  width: number | null;
  height: number | null;
  /** Format found in the bytes: `jpeg`, `png`, `webp`, `tiff`, `bmp`, ... */
  format: string | null;
  /** Valid label rows in NDJSON annotation form (see `LabelRow`); `[]` for a background image. */
  labels: LabelRow[];
  /** Label entry the rows came from (yolo layouts). */
  labelEntry: string | null;
  /** Classify: the class folder name. */
  className: string | null;
  /** Where the original bytes lie in the archive, to serve them later with a byte range. */
  source: EntrySource;
  /** The image's bytes, for a thumbnail. Only valid during the call: copy it to keep it. */
  data: Buffer;
}

export interface ProcessOptions {
  archivePath: string;
  task: DatasetTask;
  limits?: Partial<ProcessingLimits>;
  /** Called at each phase and at most every `progressIntervalMs` during the image pass. */
  onProgress?: (progress: ProcessingProgress) => void;
  /**
   * Called for every readable image, up to `concurrency` calls at once, and awaited (back-pressure).
   * It is called even when other files have errors, so that the whole archive is checked in one pass;
   * discard what it stored when the result is not `ok`. An exception from it aborts processing and
   * is rethrown.
   */
  onImage?: (image: ProcessedImage) => void | Promise<void>;
  signal?: AbortSignal;
  /** Images checked at once; one per core by default. */
  concurrency?: number;
  /** Images whose labels are read and held at once (PROCESS_WINDOW by default; tests make it small). */
  labelWindow?: number;
  /** Report entries listed per list; the rest are only counted. */
  reportLimit?: number;
  progressIntervalMs?: number;
}

export interface ProcessResult {
  /** True when there is no error at all; warnings do not count. */
  ok: boolean;
  /** The error that stopped processing early, if any (it is also the first error of the report). */
  fatal: ReportEntry | null;
  layout: LayoutSummary | null;
  /** Null when processing stopped before the image pass. Meaningful for the caller only when `ok`. */
  stats: DatasetStats | null;
  report: ProcessingReport;
  /** Images handed to `onImage`. */
  images: number;
  /**
   * The task the archive was checked as: the dataset's task, or `classify` when the archive is a
   * classification layout whatever task the dataset was created with (ADR 0029).
   */
  task: DatasetTask;
}

/**
 * Images whose labels are read and held at once: the bound of the label bytes in memory (ADR 0042).
 * 512, not 4,096: a window's label copies outlive the young generation and wait in the old one for a
 * full collection; the smaller window cut the pass's peak growth at 32,000 images from 17–31 to ~10 MB.
 */
export const PROCESS_WINDOW = 512;

/** A window's label buffer larger than this is not kept for the next window. */
const LABEL_STORE_KEPT = 1024 * 1024;

/**
 * One image of the pass as it is handled (ADR 0042): its split, its name and class, and its label
 * file's position in the listing (-1: none). The pass keeps the whole plan as typed columns (`Plan`)
 * and makes one of these per image read.
 */
interface WorkItem {
  split: Split;
  /** File name inside its split. */
  name: string;
  /** The label file beside the image (yolo layouts), when the archive has it: its position, or -1. */
  label: number;
  classIndex: number | null;
}

/**
 * The pass's plan as typed columns (ADR 0042): per image, its entry's position in the archive's
 * listing, its label file's (-1: none), its class (-1: none) and its split (an index into SPLITS);
 * `order` lists the images in archive order.
 */
interface Plan {
  names: string[];
  kptShape: [number, number] | null;
  image: Int32Array;
  label: Int32Array;
  classIndex: Int32Array;
  splitOf: Uint8Array;
  order: Int32Array;
  stats: StatsAccumulator;
}

/**
 * Errors that spoil one file, not the archive: report them and go on. Everything else (a bomb, I/O
 * failure) stops processing.
 */
const PER_ENTRY_CODES = new Set<string>([
  ProcessingCode.CorruptEntry,
  ProcessingCode.CrcMismatch,
  ProcessingCode.Encrypted,
  ProcessingCode.UnsupportedCompression,
]);

/**
 * One image's check, the same for an upload's processing and for images added to a dataset (ADR 0037):
 * the byte-level rule decides (the same function and the same bytes as the browser's check); sharp only
 * measures images whose header lies beyond the rule's window; then the image–label pair is verified and
 * its shapes are added to `shapes` (for the task hint).
 */
export async function checkImage(data: Buffer, name: string, label: PairLabel | null, schema: LabelSchema, shapes: ParsedLabels['shapes']) {
  const verdict = inspectImageBytes(sampleOf(data), name, extname(name)) as ImageVerdict;
  let { width, height } = verdict;
  if (verdict.ok && (width === null || height === null) && verdict.format !== null) ({ width, height } = await probeImage(data, name));
  const pair = verifyImageLabel({ image: name, verdict, label, schema });
  shapes.boxes += pair.shapes.boxes;
  shapes.polygons += pair.shapes.polygons;
  shapes.other += pair.shapes.other;
  return { verdict, width, height, pair };
}

export async function processArchive(options: ProcessOptions): Promise<ProcessResult> {
  const { archivePath, onImage, signal } = options;
  let task = options.task;
  const limits: ProcessingLimits = { ...DEFAULT_PROCESSING_LIMITS, ...options.limits };
  const concurrency = Math.max(1, options.concurrency ?? machineParallelism());
  const labelWindow = Math.max(1, options.labelWindow ?? PROCESS_WINDOW);
  const progressInterval = options.progressIntervalMs ?? 250;
  const report = new ReportBuilder(options.reportLimit ?? 1000);
  let layout: LayoutSummary | null = null;
  let statsAcc: StatsAccumulator | null = null;
  let fatal: ReportEntry | null = null;
  let sent = 0;
  let archive: ArchiveReader | null = null;

  const progress = (p: ProcessingProgress) => options.onProgress?.(p);

  try {
    if (!DATASET_TASKS.includes(task)) {
      throw new DatasetProcessingError(
        ProcessingCode.UnsupportedTask,
        `Datasets of task "${String(task)}" cannot be checked yet; supported: ${DATASET_TASKS.join(', ')}.`,
      );
    }
    progress({ phase: 'listing', done: 0, total: 0, bytesDone: 0, bytesTotal: 0 });
    archive = await openArchive(archivePath, limits);
    signal?.throwIfAborted();

    progress({ phase: 'checking', done: 0, total: 0, bytesDone: 0, bytesTotal: 0 });
    const reader = archive;
    const listing = reader.entries;
    // The layout's index and columns live only while the plan is made: the pass keeps the plan's typed
    // columns, and the listing its own; nothing per image in the JS heap (ADR 0042).
    const plan = await (async (): Promise<Plan> => {
      const { table: usable, positions: listingPosition } = usableEntries(listing, report);
      const index = indexEntries(usable);
      // The archive settles the task when it can only be one (ADR 0029): no manual change for a classification zip.
      if (task !== 'classify' && taskFromLayout(index) === 'classify') {
        report.add(
          issue(
            'warning',
            ProcessingCode.TaskPicked,
            `The archive is a classification dataset (<split>/<class>/<image>), so the dataset's task was changed from ${task} to classify.`,
          ),
        );
        task = 'classify';
      }
      const detected = detectLayout(index, { task });
      if (!detected.ok) throw new DatasetProcessingError(detected.error.code as ProcessingCode, detected.error.message, detected.error.file);

      let names: string[] = [];
      let yamlPaths: YamlSplitPaths | undefined;
      let kptShape: [number, number] | null = null;
      if (detected.layout.yamlPath) {
        const yamlFile = detected.layout.yamlPath;
        const yamlEntry = listingPosition(findFile(index, yamlFile));
        const yamlSize = listing.uncompressedSize(yamlEntry);
        if (yamlSize > MAX_YAML_CHARS * 4) {
          throw new DatasetProcessingError(
            ProcessingCode.YamlInvalid,
            `${yamlFile} is ${yamlSize} bytes; a dataset yaml holds a few lines (the limit is ${MAX_YAML_CHARS}).`,
            yamlFile,
          );
        }
        const text = decodeText((await reader.readEntry(yamlEntry, limits.maxTextBytes)).data, yamlFile, report, true);
        const parsed = parseDatasetYaml(text ?? '', { file: yamlFile, task });
        const firstError = parsed.issues.find((i) => i.severity === 'error');
        if (!parsed.config) {
          // All yaml errors are listed; the fatal one is the first of them, so do not list it twice.
          report.add(parsed.issues.filter((i) => i !== firstError));
          const first = firstError ?? issue('error', ProcessingCode.YamlInvalid, `${yamlFile} could not be read.`, yamlFile);
          throw new DatasetProcessingError(first.code as ProcessingCode, first.message, first.file, first.line);
        }
        report.add(parsed.issues);
        names = parsed.config.names;
        yamlPaths = parsed.config.splits;
        kptShape = parsed.config.kptShape;
      }

      const resolved = resolveLayoutPositions(index, detected.layout, yamlPaths);
      if (!resolved.ok) throw new DatasetProcessingError(resolved.error.code as ProcessingCode, resolved.error.message, resolved.error.file);
      const dataset = resolved.layout;
      layout = summarizeLayout(dataset);
      report.add(dataset.issues);
      if (dataset.kind === 'classify') names = dataset.classNames ?? [];

      let total = 0;
      for (const split of SPLITS) total += dataset.splits[split]?.positions.length ?? 0;
      const image = new Int32Array(total);
      const label = new Int32Array(total);
      const classIndex = new Int32Array(total);
      const splitOf = new Uint8Array(total);
      let k = 0;
      SPLITS.forEach((split, s) => {
        const columns = dataset.splits[split];
        if (!columns) return;
        image.set(columns.positions, k);
        if (columns.labels) label.set(columns.labels, k);
        else label.fill(-1, k, k + columns.positions.length);
        if (columns.classes) classIndex.set(columns.classes, k);
        else classIndex.fill(-1, k, k + columns.positions.length);
        splitOf.fill(s, k, k + columns.positions.length);
        k += columns.positions.length;
      });
      // From here on, positions are the listing's.
      for (let i = 0; i < total; i++) {
        image[i] = listingPosition(image[i]);
        if (label[i] !== -1) label[i] = listingPosition(label[i]);
      }
      // Archive order turns the pass into a mostly sequential read of the file (a stable sort of the
      // images by where their entries lie; most archives list them in that order already).
      const byOffset = listing.headerOffset.bind(listing);
      const order = new Int32Array(total);
      let sorted = true;
      for (let i = 0; i < total; i++) {
        order[i] = i;
        if (i > 0 && byOffset(image[i]) < byOffset(image[i - 1])) sorted = false;
      }
      if (!sorted) order.sort((a, b) => byOffset(image[a]) - byOffset(image[b]) || a - b);
      return { names, kptShape, image, label, classIndex, splitOf, order, stats: new StatsAccumulator(names) };
    })();
    const { names, kptShape, order } = plan;
    statsAcc = plan.stats;
    let bytesTotal = 0;
    for (let i = 0; i < order.length; i++) bytesTotal += listing.uncompressedSize(plan.image[i]);
    /** The pass's `k`th image (archive order) as a work item. */
    const workItem = (k: number, entryName: string): WorkItem => {
      const i = order[k];
      const classIndex = plan.classIndex[i];
      return { split: SPLITS[plan.splitOf[i]], name: basename(entryName), label: plan.label[i], classIndex: classIndex === -1 ? null : classIndex };
    };

    const schema: LabelSchema = { task, nc: names.length, kptShape };
    const shapes: ParsedLabels['shapes'] = { boxes: 0, polygons: 0, other: 0 };
    let done = 0;
    let bytesDone = 0;
    let lastProgress = 0;
    const stats = plan.stats;

    // Labels are read a window of images at a time (ADR 0042): one sequential pass over the window's
    // label files, then over its images; the label bytes held never exceed one window's, whatever the
    // number of images.
    // The window's label bytes are copied one after another into one buffer, each image's span in it
    // kept by its slot in the window: no Buffer, map entry or string per label outlives a scavenge (ADR 0042).
    const LABEL_NONE = 0;
    const LABEL_BYTES = 1;
    const LABEL_ISSUE = 2;
    /** Per window slot (image `from + slot`): what its label read gave. */
    const labelState = new Uint8Array(labelWindow);
    const spanStart = new Float64Array(labelWindow);
    const spanEnd = new Float64Array(labelWindow);
    /** A damaged label file's issue, by window slot (rare). */
    const labelIssues = new Map<number, Issue>();
    /** The window's label files to read, and the slot of the image each belongs to. */
    const labelList = new Int32Array(labelWindow);
    const labelSlot = new Int32Array(labelWindow);
    /** Label files already listed in this window: one label file shared by two images is given to the first only. */
    const labelTaken = new Uint8Array(listing.count);
    let labelStore = Buffer.alloc(0);
    let labelStoreUsed = 0;
    const readLabels = async (from: number, to: number) => {
      let n = 0;
      let needed = 0;
      labelState.fill(LABEL_NONE);
      labelIssues.clear();
      for (let k = from; k < to; k++) {
        const label = plan.label[order[k]];
        if (label === -1 || labelTaken[label] || listing.uncompressedSize(label) > limits.maxTextBytes) continue;
        labelTaken[label] = 1;
        labelList[n] = label;
        labelSlot[n++] = k - from;
        needed += listing.uncompressedSize(label);
      }
      for (let i = 0; i < n; i++) labelTaken[labelList[i]] = 0;
      if (labelStore.length < needed || labelStore.length > LABEL_STORE_KEPT) labelStore = Buffer.allocUnsafe(needed);
      labelStoreUsed = 0;
      for await (const read of reader.readInOrder(labelList.subarray(0, n), limits.maxTextBytes)) {
        signal?.throwIfAborted();
        const slot = labelSlot[read.index];
        if (read.error) {
          labelIssues.set(slot, perEntryIssue(read.error, read.entry.name));
          labelState[slot] = LABEL_ISSUE;
        } else {
          // A copy: `data` is a view of the read window.
          if (labelStoreUsed + read.data.length > labelStore.length) {
            const grown = Buffer.allocUnsafe(Math.max(labelStore.length * 2, labelStoreUsed + read.data.length));
            labelStore.copy(grown, 0, 0, labelStoreUsed);
            labelStore = grown;
          }
          read.data.copy(labelStore, labelStoreUsed);
          spanStart[slot] = labelStoreUsed;
          labelStoreUsed += read.data.length;
          spanEnd[slot] = labelStoreUsed;
          labelState[slot] = LABEL_BYTES;
        }
        read.release();
      }
    };

    /** The label side of the pair, as `verifyImageLabel` takes it (the same input the browser check gives it). */
    const labelOf = (item: WorkItem, file: string | null, slot: number): PairLabel => {
      if (item.label === -1 || file === null) return null;
      if (listing.uncompressedSize(item.label) > limits.maxTextBytes) {
        return {
          file,
          problem: issue(
            'error',
            ProcessingCode.LabelTooLarge,
            `The label file is larger than ${limits.maxTextBytes} bytes; label files hold a few lines of numbers.`,
            file,
          ),
        };
      }
      const state = labelState[slot];
      labelState[slot] = LABEL_NONE;
      if (state === LABEL_NONE) return null;
      if (state === LABEL_ISSUE) return { file, problem: labelIssues.get(slot)! };
      const text = decodeLabelText(labelStore.subarray(spanStart[slot], spanEnd[slot]));
      if (text === null) return { file, problem: labelNotText(file) };
      return { file, text };
    };
    const usableTrain = { count: 0 };

    /** The window's images, positions in the listing (`from + read.index` is an image's place in `order`). */
    const windowEntries = new Int32Array(labelWindow);
    let windowFrom = 0;
    const handle = async (read: SequentialRead) => {
      const { entry } = read;
      const item = workItem(windowFrom + read.index, entry.name);
      const { split } = item;
      // The label's name is made here, for this image's check and row (ADR 0042).
      const labelFile = item.label === -1 ? null : listing.name(item.label);
      const label = labelOf(item, labelFile, read.index);
      const leave = (problem: Issue) =>
        report.leave({
          image: entry.name,
          code: problem.code,
          message: problem.message,
          file: problem.file ?? entry.name,
          ...(problem.line ? { line: problem.line } : {}),
        });
      if (entry.uncompressedSize > limits.maxImageBytes) {
        leave(issue('error', ProcessingCode.ImageTooLarge, `The image is ${entry.uncompressedSize} bytes; the limit is ${limits.maxImageBytes}.`, entry.name));
        return;
      }
      if (read.error) {
        leave(perEntryIssue(read.error, entry.name));
        return;
      }
      const { verdict, width, height, pair } = await checkImage(read.data, entry.name, item.classIndex !== null ? null : label, schema, shapes);
      if (!pair.keep) {
        report.leave(pair.leftOut!);
        return;
      }
      report.add(pair.warnings);
      const rows: LabelRow[] = item.classIndex !== null ? [[item.classIndex]] : pair.rows;
      if (split === 'train') usableTrain.count++;
      stats.addImage(
        split,
        rows.map((r) => r[0]),
      );
      if (onImage) {
        await onImage({
          split,
          name: item.name,
          entryName: entry.name,
          width,
          height,
          format: verdict.format,
          labels: rows,
          labelEntry: labelFile,
          className: item.classIndex !== null ? names[item.classIndex] : null,
          source: read.source,
          data: read.data,
        });
        sent++;
      }
    };

    const total = order.length;
    const hasTrain = plan.splitOf.includes(SPLITS.indexOf('train'));
    progress({ phase: 'images', done: 0, total, bytesDone: 0, bytesTotal });
    for (let from = 0; from < total; from += labelWindow) {
      // A window's work items are made as its images are handled, and left to the collector then.
      const to = Math.min(total, from + labelWindow);
      windowFrom = from;
      for (let k = from; k < to; k++) windowEntries[k - from] = plan.image[order[k]];
      await readLabels(from, to);
      await forEachPooled(reader.readInOrder(windowEntries.subarray(0, to - from), limits.maxImageBytes), concurrency, signal, async (read) => {
        try {
          await handle(read);
        } finally {
          // The image's bytes are no longer looked at: its read buffer may be reused (ADR 0042).
          read.release();
        }
        done++;
        bytesDone += read.entry.uncompressedSize;
        const now = Date.now();
        if (now - lastProgress >= progressInterval && done < total) {
          lastProgress = now;
          progress({ phase: 'images', done, total, bytesDone, bytesTotal });
        }
      });
      // A label whose image was never handed over (an image entry that could not be read) goes with its window.
      labelIssues.clear();
    }

    const hint = taskMismatchHint(task, shapes);
    if (hint) report.addFirst(hint);
    else if (usableTrain.count === 0 && hasTrain && report.leftOutTotal > 0) {
      // Pairs left out never fail the dataset, unless nothing is left to train on (ADR 0029).
      const left = report.leftOutTotal;
      throw new DatasetProcessingError(
        ProcessingCode.NothingUsable,
        `None of the train images can be used: all ${left} ${left === 1 ? 'pair was' : 'pairs were'} left out (see the list of left-out images for why).`,
      );
    }
    progress({ phase: 'done', done: total, total, bytesDone: bytesTotal, bytesTotal });
  } catch (err) {
    if (!isProcessingError(err)) throw err;
    fatal = { code: err.code, message: err.message, ...(err.file ? { file: err.file } : {}), ...(err.line ? { line: err.line } : {}) };
    report.addFirst(issue('error', err.code, err.message, err.file, err.line));
    progress({ phase: 'done', done: 0, total: 0, bytesDone: 0, bytesTotal: 0 });
  } finally {
    await archive?.close();
  }

  const finalReport = report.toReport();
  return {
    ok: fatal === null && finalReport.errorCount === 0,
    fatal,
    layout,
    stats: fatal === null && statsAcc ? statsAcc.toStats() : null,
    report: finalReport,
    images: sent,
    task,
  };
}

/** Damage confined to one entry becomes a report line; anything else (a bomb, I/O failure) stops processing. */
function perEntryIssue(error: DatasetProcessingError, file: string): Issue {
  if (!PER_ENTRY_CODES.has(error.code)) throw error;
  return issue('error', error.code, error.message, file);
}

/**
 * The entries the layout is worked out from: the listing itself when every entry can be read (no copy
 * of a list of 100,000s), else the listing without links and unreadable entries, each reported, as a
 * table of the kept positions. `positions` maps a position of `table` to the listing's.
 */
function usableEntries(listing: ArchiveEntries, report: ReportBuilder): { table: LayoutEntryTable; positions: (position: number) => number } {
  let skipped = 0;
  for (let i = 0; i < listing.count; i++) if (listing.isLink(i) || listing.unsupported(i)) skipped++;
  if (skipped === 0) return { table: listing, positions: (position) => position };
  const kept = new Int32Array(listing.count - skipped);
  let n = 0;
  for (let i = 0; i < listing.count; i++) {
    const unsupported = listing.unsupported(i);
    if (listing.isLink(i)) {
      const name = listing.name(i);
      if (!isJunk(name)) report.add(issue('warning', ProcessingCode.LinkSkipped, 'Links are not followed; this entry is ignored.', name));
    } else if (unsupported) {
      const name = listing.name(i);
      report.add(
        issue(
          'error',
          ProcessingCode.UnsupportedEntry,
          `${name} is ${unsupported}, which cannot be read; re-create the archive without sparse files (tar without --sparse).`,
          name,
        ),
      );
    } else kept[n++] = i;
  }
  return {
    table: { count: kept.length, name: (position) => listing.name(kept[position]), isDirectory: (position) => listing.isDirectory(kept[position]) },
    positions: (position) => kept[position],
  };
}

/**
 * Text files from Windows tools come as UTF-16 with a byte-order mark, and yaml written by hand in
 * Latin-1; numbers survive either, names need the right decoding.
 */
function decodeText(bytes: Buffer, file: string, report: ReportBuilder, lenient: boolean): string | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    if (lenient) {
      report.add(
        issue('warning', ProcessingCode.LabelEncoding, 'The file is not UTF-8; it was read as Latin-1. Save it as UTF-8 if class names look wrong.', file),
      );
      return new TextDecoder('latin1').decode(bytes);
    }
    report.add(issue('error', ProcessingCode.LabelEncoding, 'The label file is not text (not UTF-8); label files hold lines of numbers.', file));
    return null;
  }
}
