import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { machineParallelism, makeThumbnail } from './processing/index.js';
import { readImageBytes } from './datasets.image-source.js';
import { datasetsRepository, type DatasetImageRow, type DatasetRow } from './datasets.repository.js';

/**
 * Previews (ADR 0043, after issue 18's "lazily on first view, cached"). A dataset is Ready after checks
 * and statistics; its 256 px previews are made when people look at them, and kept:
 *
 * - The first request for an image without a preview puts it first in a pool of preview workers, one
 *   per core (`machineParallelism`), and puts the images a person sees next — the following
 *   `READ_AHEAD` images in browse order that have none — behind it. The browser's next requests find
 *   their preview made or in the making and wait for it instead of starting their own.
 * - A worker reads the image's bytes (datasets.image-source.ts: an archive range or a blob), makes
 *   the preview in one libvips pass with the JPEG shrunk on load in the DCT domain (`makeThumbnail`),
 *   stores it under the dataset's `thumbs/` folder and answers the requests waiting for it at once.
 * - Stored previews are recorded on their images in batches (one UPDATE for up to `RECORD_BATCH`),
 *   not one commit per image; until recorded, an image's preview is answered from memory.
 * Two requests for the same image make it once; a request for an image queued ahead moves it to the front.
 */

/** Formats sharp decodes here (BMP has no decoder, HEIC/PFM/DNG are kept unverified): the others get no thumbnail. */
export function hasThumbnail(image: Pick<DatasetImageRow, 'format'>): boolean {
  return !!image.format && image.format !== 'bmp';
}

export type Thumbnail = { kind: 'stored'; stream: Readable; bytes: number } | { kind: 'made'; data: Buffer };

/** Images made ahead after a miss: the rest of the web app's page (48 images) and the next one. */
export const READ_AHEAD = 96;
/** At most this many previews queued ahead over all datasets (a bound on memory and on work nobody asked for). */
const MAX_AHEAD = 4 * READ_AHEAD;
/** Stored previews recorded on their images in one statement. */
const RECORD_BATCH = 128;

/** The thumbnail of an image whose access the caller already checked; null when it cannot have one. */
export async function thumbnailOf(ctx: AppContext, row: DatasetRow, image: DatasetImageRow): Promise<Thumbnail | null> {
  if (!hasThumbnail(image) || (!row.storageKey && !image.blobKey)) return null;
  if (image.thumbKey) {
    const stored = await ctx.blobs.get(image.thumbKey).catch(() => null);
    if (stored) return { kind: 'stored', stream: stored.stream, bytes: stored.bytes };
    // Recorded but gone (a reprocess or a store moved): made again below.
  }
  let job = making.get(image.id);
  if (job) pool.promote(job);
  else {
    job = pool.add(ctx, row, image, 'asked');
    readAhead(ctx, row, image);
  }
  const data = await job.result;
  return data ? { kind: 'made', data } : null;
}

interface Job {
  ctx: AppContext;
  row: DatasetRow;
  image: DatasetImageRow;
  key: string;
  priority: 'asked' | 'ahead';
  started: boolean;
  result: Promise<Buffer | null>;
  resolve: (data: Buffer | null) => void;
}

/** Images whose preview is queued, in the making, or stored and not recorded yet (by image id: ids are unique). */
const making = new Map<string, Job>();

/** The preview workers: `size` previews in the making at once, asked ones before those made ahead. */
function previewPool(size: number) {
  const asked: Job[] = [];
  const ahead: Job[] = [];
  let running = 0;
  const pump = () => {
    while (running < size) {
      const job = asked.shift() ?? ahead.shift();
      if (!job) return;
      running++;
      job.started = true;
      void make(job).finally(() => {
        running--;
        pump();
      });
    }
  };
  return {
    add(ctx: AppContext, row: DatasetRow, image: DatasetImageRow, priority: Job['priority']): Job {
      let resolve!: Job['resolve'];
      const result = new Promise<Buffer | null>((r) => (resolve = r));
      const key = `${blobKeys.datasetThumbs(row.userId, row.id)}${image.id}.jpg`;
      const job: Job = { ctx, row, image, key, priority, started: false, result, resolve };
      making.set(image.id, job);
      (priority === 'asked' ? asked : ahead).push(job);
      pump();
      return job;
    },
    /** A person asks for an image queued ahead: it goes to the end of the asked ones. */
    promote(job: Job) {
      if (job.started || job.priority === 'asked') return;
      const at = ahead.indexOf(job);
      if (at >= 0) ahead.splice(at, 1);
      job.priority = 'asked';
      asked.push(job);
      pump();
    },
    get queuedAhead() {
      return ahead.length;
    },
    get idle() {
      return running === 0 && asked.length === 0 && ahead.length === 0;
    },
  };
}

const pool = previewPool(machineParallelism());

/** Datasets whose next images are being looked up (one lookup at a time per dataset). */
const lookingAhead = new Set<string>();

/** Queues the next images a person sees after `image` (browse order) that have no preview yet. */
function readAhead(ctx: AppContext, row: DatasetRow, image: DatasetImageRow) {
  const room = Math.min(READ_AHEAD, MAX_AHEAD - pool.queuedAhead);
  if (room <= 0 || lookingAhead.has(row.id)) return;
  lookingAhead.add(row.id);
  void datasetsRepository
    .withoutThumbAfter(ctx.db, row.id, image, room)
    .then((next) => {
      for (const i of next) if (hasThumbnail(i) && !making.has(i.id)) pool.add(ctx, row, i, 'ahead');
    })
    .catch((err: unknown) => ctx.log.warn({ err, datasetId: row.id }, 'previews could not be queued ahead'))
    .finally(() => lookingAhead.delete(row.id));
}

async function make(job: Job): Promise<void> {
  const { ctx, row, image, key } = job;
  let data: Buffer | null = null;
  try {
    data = await makeThumbnail(await readImageBytes(ctx, row, image));
    await ctx.blobs.put(key, data, { contentType: 'image/jpeg' });
  } catch (err) {
    ctx.log.warn({ err, datasetId: row.id, imageId: image.id }, 'thumbnail could not be made');
    making.delete(image.id);
    job.resolve(null);
    return;
  }
  job.resolve(data);
  record(job);
}

/** Stored previews waiting to be recorded, per application context (tests run several apps in one process). */
const unrecorded = new Map<AppContext, Job[]>();
let flushTimer: NodeJS.Timeout | null = null;

function record(job: Job) {
  let jobs = unrecorded.get(job.ctx);
  if (!jobs) unrecorded.set(job.ctx, (jobs = []));
  jobs.push(job);
  if (jobs.length >= RECORD_BATCH || pool.idle) void flush(job.ctx);
  else flushTimer ??= setTimeout(flushAll, 50).unref();
}

function flushAll() {
  flushTimer = null;
  for (const ctx of [...unrecorded.keys()]) void flush(ctx);
}

/** One UPDATE for the batch; a file whose image is gone meanwhile is deleted. Until then the previews are answered from memory. */
async function flush(ctx: AppContext): Promise<void> {
  const jobs = unrecorded.get(ctx);
  if (!jobs?.length) return;
  unrecorded.delete(ctx);
  try {
    const kept = new Set(
      await datasetsRepository.setThumbKeys(
        ctx.db,
        jobs.map((j) => ({ datasetId: j.row.id, imageId: j.image.id, key: j.key })),
      ),
    );
    for (const j of jobs) if (!kept.has(j.image.id)) await ctx.blobs.delete(j.key).catch(() => undefined);
  } catch (err) {
    // Not recorded: the next view makes the preview again (the file is overwritten under the same key).
    ctx.log.warn({ err, previews: jobs.length }, 'previews could not be recorded');
  } finally {
    for (const j of jobs) if (making.get(j.image.id) === j) making.delete(j.image.id);
  }
}

/** Resolves once no preview is queued, in the making or waiting to be recorded (tests, shutdown). */
export async function previewsSettled(): Promise<void> {
  while (making.size > 0 || lookingAhead.size > 0) {
    flushAll();
    await new Promise((r) => setTimeout(r, 10));
  }
}
