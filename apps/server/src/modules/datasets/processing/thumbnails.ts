/**
 * The thumbnail stage, run after a dataset is Ready: one more sequential pass over the archive's images
 * with one sharp call in flight per core. Separate from `processArchive` so that checking and
 * statistics (what makes a dataset usable) never wait for previews.
 */
import { openArchive, type ArchiveEntry } from './archive.js';
import { makeThumbnail } from './images.js';
import { forEachPooled, machineParallelism } from './pool.js';
import { DEFAULT_PROCESSING_LIMITS, type ProcessingLimits } from './process-archive.js';

export interface ThumbnailSource {
  /** The caller's id of the image, handed back with its thumbnail. */
  id: string;
  /** Archive entry name of the image. */
  entryName: string;
}

export interface ThumbnailsOptions {
  archivePath: string;
  images: readonly ThumbnailSource[];
  /** Called once per image, up to `concurrency` at once, and awaited; `thumb` is null when the image cannot be decoded. */
  onThumbnail: (id: string, thumb: Buffer | null) => Promise<void>;
  /** Called at most every `progressIntervalMs`. */
  onProgress?: (done: number, total: number) => void;
  progressIntervalMs?: number;
  limits?: Partial<ProcessingLimits>;
  /** sharp calls in flight; one per core by default. */
  concurrency?: number;
  signal?: AbortSignal;
}

export async function makeThumbnails(options: ThumbnailsOptions): Promise<{ made: number; failed: number }> {
  const limits = { ...DEFAULT_PROCESSING_LIMITS, ...options.limits };
  const archive = await openArchive(options.archivePath, limits);
  let made = 0;
  let failed = 0;
  let lastProgress = 0;
  const total = options.images.length;
  try {
    const wanted = new Map(options.images.map((i) => [i.entryName, i.id]));
    const entries: ArchiveEntry[] = archive.entries.filter((e) => wanted.has(e.name));
    await forEachPooled(archive.readInOrder(entries, limits.maxImageBytes), options.concurrency ?? machineParallelism(), options.signal, async (read) => {
      const thumb = read.error ? null : await makeThumbnail(read.data).catch(() => null);
      if (thumb) made++;
      else failed++;
      await options.onThumbnail(wanted.get(read.entry.name)!, thumb);
      const now = Date.now();
      if (options.onProgress && now - lastProgress >= (options.progressIntervalMs ?? 250)) {
        lastProgress = now;
        options.onProgress(made + failed, total);
      }
    });
    // Images no longer in the archive (it was replaced meanwhile) count as failed.
    failed += total - entries.length;
  } finally {
    await archive.close();
  }
  return { made, failed };
}
