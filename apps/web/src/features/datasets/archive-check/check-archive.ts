import {
  normalizeEntryName,
  precheckArchive,
  printableName,
  ProcessingCode,
  type DatasetTask,
  type Issue,
  type LayoutSummary,
  type LeftOutEntry,
  type PrecheckSource,
} from '@sightline/contracts/dataset-layout';
import { listZipEntries, readBuffer, ZipListingError, type ZipListingEntry } from '../../../lib/zip-listing';

/**
 * The check before upload (product notes #1, #2; ADR 0029): the zip's central directory is listed in
 * the browser, then the contract's `precheckArchive` runs the server's own rules on it — layout, task,
 * yaml, every label file, and the byte-level image rule on each image's first and last bytes — so the
 * pairs it lists as left out are the pairs the server's report will list, and "looks right" is never
 * followed by Failed.
 *
 * Blocked means the server would fail the dataset (the archive or its structure is unusable, or no
 * image would be left to train on). Otherwise the upload may go on, with the left-out pairs listed.
 */
export type ArchiveCheck =
  | {
      status: 'ok';
      format: 'zip';
      entries: number;
      summary: LayoutSummary;
      issues: Issue[];
      /** Pairs ultralytics would drop: left out of the dataset, listed in its report. */
      leftOut: LeftOutEntry[];
      leftOutCount: number;
      /** Pairs kept, all splits together. */
      usable: number;
      /** The task the archive is checked as; differs from the one asked when the archive settles it. */
      task: DatasetTask;
      taskPicked: boolean;
    }
  | { status: 'blocked'; format: 'zip' | 'other'; error: { code: string; message: string; file?: string }; leftOut?: LeftOutEntry[] }
  | { status: 'skipped'; format: 'tar' | 'zip'; reason: 'tar' | 'too-large' };

export const ARCHIVE_ACCEPT = ['.zip', '.tar'];
export const archiveFormat = (name: string): 'zip' | 'tar' | null => (/\.zip$/i.test(name) ? 'zip' : /\.tar$/i.test(name) ? 'tar' : null);

/** The dataset's task as the layout check knows it (semantic-segment archives use the segment layout). */
export const layoutTask = (task: string): DatasetTask | undefined =>
  task === 'semantic-segment' ? 'segment' : (['detect', 'segment', 'pose', 'obb', 'classify'] as const).find((t) => t === task);

export async function checkArchive(
  file: Blob & { name: string },
  task: string,
  options: { onProgress?: (done: number, total: number) => void } = {},
): Promise<ArchiveCheck> {
  const format = archiveFormat(file.name);
  if (format === null) {
    return { status: 'blocked', format: 'other', error: { code: 'NoArchiveProvided', message: `"${file.name}" is not a .zip or .tar archive.` } };
  }
  if (format === 'tar') return { status: 'skipped', format, reason: 'tar' };

  let raw;
  try {
    raw = await listZipEntries(file);
  } catch (error) {
    if (!(error instanceof ZipListingError)) throw error;
    if (error.kind === 'too-large') return { status: 'skipped', format, reason: 'too-large' };
    return {
      status: 'blocked',
      format: 'zip',
      error: { code: error.kind === 'not-a-zip' ? ProcessingCode.NotAZip : ProcessingCode.Corrupt, message: error.message },
    };
  }

  const entries: (ZipListingEntry & { name: string; isDirectory: boolean; size: number })[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    const normalized = normalizeEntryName(entry.name);
    if (!normalized.ok) {
      // Control characters shown escaped (\xNN), as the server reports them.
      const shown = printableName(entry.name);
      return {
        status: 'blocked',
        format,
        error: { code: ProcessingCode.UnsafePath, message: `Unsafe path in the archive: "${shown}" ${normalized.reason}.`, file: shown },
      };
    }
    const isDirectory = normalized.isDirectory || normalized.name === '';
    if (!isDirectory) {
      if (seen.has(normalized.name))
        return {
          status: 'blocked',
          format,
          error: { code: ProcessingCode.DuplicateEntry, message: `The archive holds "${normalized.name}" twice.`, file: normalized.name },
        };
      seen.add(normalized.name);
      if (entry.encrypted) {
        return {
          status: 'blocked',
          format,
          error: { code: ProcessingCode.Encrypted, message: `${normalized.name} is encrypted; upload an archive without a password.`, file: normalized.name },
        };
      }
    }
    entries.push({ ...entry, name: normalized.name, isDirectory, size: entry.uncompressedSize });
  }

  const requested = layoutTask(task) ?? 'detect';
  const result = await precheckArchive(zipSource(file, entries), requested, options.onProgress);
  if (result.fatal) return { status: 'blocked', format, error: result.fatal, ...(result.report.leftOut?.length ? { leftOut: result.report.leftOut } : {}) };
  const issues: Issue[] = [
    ...result.report.errors.map((e) => ({ ...e, severity: 'error' as const })),
    ...result.report.warnings.map((w) => ({ ...w, severity: 'warning' as const })),
  ];
  const firstError = issues.find((i) => i.severity === 'error');
  // Errors that are not about one pair (duplicate image names, an empty train split...) fail the dataset on the server too.
  if (firstError)
    return { status: 'blocked', format, error: { code: firstError.code, message: firstError.message, ...(firstError.file ? { file: firstError.file } : {}) } };
  return {
    status: 'ok',
    format,
    entries: entries.length,
    summary: result.layout!,
    issues,
    leftOut: result.report.leftOut ?? [],
    leftOutCount: result.report.leftOutCount ?? 0,
    usable: Object.values(result.usable).reduce((n, v) => n + (v ?? 0), 0),
    task: result.task,
    taskPicked: result.taskPicked,
  };
}

/** Inflating the end of a compressed image costs its whole size: done up to this size per image, and this much in all. */
const INFLATE_WHOLE_MAX = 4 * 1024 * 1024;
const INFLATE_BUDGET = 256 * 1024 * 1024;

/** The zip's entries as the contract's check reads them: stored ones by slices, deflated ones through DecompressionStream. */
function zipSource(file: Blob, entries: readonly (ZipListingEntry & { name: string; isDirectory: boolean; size: number })[]): PrecheckSource {
  const byName = new Map(entries.filter((e) => !e.isDirectory).map((e) => [e.name, e]));
  let budget = INFLATE_BUDGET;
  let cached: { name: string; data: Uint8Array } | null = null;
  const dataStart = async (entry: ZipListingEntry) => {
    const header = new DataView(await readBuffer(file.slice(entry.localHeaderOffset, entry.localHeaderOffset + 30)));
    if (header.byteLength < 30 || header.getUint32(0, true) !== 0x04034b50) return null;
    return entry.localHeaderOffset + 30 + header.getUint16(26, true) + header.getUint16(28, true);
  };
  const bytes = async (start: number, end: number) => new Uint8Array(await readBuffer(file.slice(start, end)));
  /** Inflates the entry's first `limit` bytes (all of it when limit is Infinity). */
  const inflate = async (entry: ZipListingEntry, start: number, limit: number): Promise<Uint8Array | null> => {
    try {
      const part = file.slice(start, start + entry.compressedSize);
      // Browsers stream the compressed bytes; without Blob.stream (jsdom) they are read at once.
      const compressed: ReadableStream<Uint8Array> =
        typeof part.stream === 'function'
          ? (part.stream() as ReadableStream<Uint8Array>)
          : await readBuffer(part).then((buffer) => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new Uint8Array(buffer)), c.close()) }));
      const stream = compressed.pipeThrough(new DecompressionStream('deflate-raw') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>);
      const reader = stream.getReader();
      const parts: Uint8Array[] = [];
      let length = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parts.push(value);
        length += value.length;
        if (length >= limit) {
          void reader.cancel();
          break;
        }
      }
      const out = new Uint8Array(length);
      let at = 0;
      for (const part of parts) {
        out.set(part, at);
        at += part.length;
      }
      return out;
    } catch {
      return null;
    }
  };
  const whole = async (name: string): Promise<Uint8Array | null> => {
    if (cached?.name === name) return cached.data;
    const entry = byName.get(name);
    if (!entry) return null;
    const start = await dataStart(entry);
    if (start === null) return null;
    const data =
      entry.compressionMethod === 0
        ? await bytes(start, start + entry.compressedSize)
        : entry.compressionMethod === 8
          ? await inflate(entry, start, Infinity)
          : null;
    if (data) cached = { name, data };
    return data;
  };
  return {
    entries,
    readWhole: whole,
    readSample: async (name, head, tail) => {
      const entry = byName.get(name);
      if (!entry) return null;
      const size = entry.uncompressedSize;
      if (cached?.name === name) return { size, head: cached.data.subarray(0, head), tail: cached.data.subarray(Math.max(0, cached.data.length - tail)) };
      const start = await dataStart(entry);
      if (start === null) return null;
      if (entry.compressionMethod === 0) {
        return { size, head: await bytes(start, start + Math.min(head, size)), tail: await bytes(start + size - Math.min(tail, size), start + size) };
      }
      if (entry.compressionMethod !== 8) return null;
      if (size <= INFLATE_WHOLE_MAX && budget >= size) {
        budget -= size;
        const data = await whole(name);
        return data ? { size, head: data.subarray(0, head), tail: data.subarray(Math.max(0, data.length - tail)) } : null;
      }
      const first = await inflate(entry, start, head);
      return first ? { size, head: first.subarray(0, head), tail: new Uint8Array(0), endUnknown: true } : null;
    },
  };
}
