import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { machineParallelism, makeThumbnail } from './processing/index.js';
import { readImageBytes } from './datasets.image-source.js';
import type { LinkedDataset } from './datasets.link-facts.js';
import { datasetsRepository, type DatasetImageRow } from './datasets.repository.js';

/**
 * Previews (ADR 0043, after ADR 0019's "made on first view, kept"). A dataset is Ready after checks
 * and statistics; its 256 px previews are made when people look at them, and kept:
 *
 * - The first request for an image without a preview puts it first in a pool of preview workers, two
 *   per core (`machineParallelism`), and puts the images a person sees next — the following
 *   `READ_AHEAD` images in browse order that have none — behind it. The browser's next requests find
 *   their preview made or in the making and wait for it instead of starting their own. As they reach
 *   the images made ahead, the read-ahead is topped up from the last one queued, so it keeps about
 *   `READ_AHEAD` images in front of the person without another miss.
 * - A worker reads the image's bytes (datasets.image-source.ts: an archive range in one positioned
 *   read, or a blob), makes the preview in one libvips pass with the JPEG shrunk on load in the DCT
 *   domain (`makeThumbnail`), stores it under the dataset's `thumbs/` folder and answers the requests
 *   waiting for it at once. A preview made ahead stays in memory until its first request (bounded):
 *   that request reads no image row and no file, only the dataset row its link is checked against.
 * - Stored previews are recorded on their images in batches (one UPDATE for up to `RECORD_BATCH`, or
 *   after `RECORD_AFTER_MS`), not one commit per image; until recorded, a preview is answered from memory.
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
/** Stored previews recorded on their images in one statement, at the latest `RECORD_AFTER_MS` after the first of them was stored. */
const RECORD_BATCH = 128;
const RECORD_AFTER_MS = 250;

/**
 * The thumbnail of an image of a dataset whose link the caller already checked; null when it cannot
 * have one. `lookup` reads the image's row (and throws when there is none): it is not called when the
 * preview is made ahead or in the making, so most requests of a person browsing read no image row.
 */
export async function thumbnailOf(ctx: AppContext, row: LinkedDataset, imageId: string, lookup: () => Promise<DatasetImageRow>): Promise<Thumbnail | null> {
  const link = linkKey(row.id, imageId);
  // Made ahead and not asked for yet: answered from memory once, whether or not it is recorded already.
  const early = madeAhead.get(link);
  if (early) {
    madeAhead.delete(link);
    reached(ctx, row, link);
    return { kind: 'made', data: early };
  }
  let job = making.get(link);
  if (!job) {
    const image = await lookup();
    if (!hasThumbnail(image) || (!row.storageKey && !image.blobKey)) return null;
    if (image.thumbKey && !making.has(link)) {
      const stored = await ctx.blobs.get(image.thumbKey).catch(() => null);
      if (stored) return { kind: 'stored', stream: stored.stream, bytes: stored.bytes };
      // Recorded but gone (a reprocess or a store moved): made again below.
    }
    job = making.get(link);
    if (!job) {
      job = pool.add(ctx, row, image, 'asked');
      readAhead(ctx, row, image);
    }
  }
  if (job.priority === 'ahead') reached(ctx, row, link);
  pool.promote(job);
  const data = await job.result;
  madeAhead.delete(link);
  return data ? { kind: 'made', data } : null;
}

/** Previews in flight and in memory are found by the link's dataset and image id (the route knows no row id). */
const linkKey = (datasetId: string, imageId: string) => `${datasetId}/${imageId}`;

interface Job {
  ctx: AppContext;
  row: LinkedDataset;
  image: DatasetImageRow;
  /** `linkKey` of the image. */
  link: string;
  /** Where the preview is stored. */
  key: string;
  priority: 'asked' | 'ahead';
  started: boolean;
  result: Promise<Buffer | null>;
  resolve: (data: Buffer | null) => void;
}

/** Images whose preview is queued, in the making, or stored and not recorded yet (by `linkKey`). */
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
    add(ctx: AppContext, row: LinkedDataset, image: DatasetImageRow, priority: Job['priority']): Job {
      let resolve!: Job['resolve'];
      const result = new Promise<Buffer | null>((r) => (resolve = r));
      const key = `${blobKeys.datasetThumbs(row.userId, row.id)}${image.id}.jpg`;
      const link = linkKey(row.id, image.imageId);
      const job: Job = { ctx, row, image, link, key, priority, started: false, result, resolve };
      making.set(link, job);
      (priority === 'asked' ? asked : ahead).push(job);
      pump();
      return job;
    },
    /** A person asks for an image queued ahead: it goes to the end of the asked ones (and is not kept in memory once made). */
    promote(job: Job) {
      if (job.priority === 'asked') return;
      job.priority = 'asked';
      if (job.started) return;
      const at = ahead.indexOf(job);
      if (at >= 0) ahead.splice(at, 1);
      asked.push(job);
      pump();
    },
    get queuedAhead() {
      return ahead.length;
    },
  };
}

/**
 * Two previews in the making per core (ADR 0043, amendment of 2026-11-27): a slot also waits on its
 * archive read, its file write and the main thread between them, so one per core left about a
 * quarter of the cores idle; libvips still runs one thread per call.
 */
const pool = previewPool(2 * machineParallelism());

/** Datasets whose next images are being looked up (one lookup at a time per dataset). */
const lookingAhead = new Set<string>();

/**
 * Per dataset, the images queued or made ahead that nobody asked for yet, and the last image queued
 * ahead (where the next lookup starts). As a person's requests reach these images the read-ahead is
 * topped up from there, so it stays about `READ_AHEAD` images in front of them without waiting for a
 * miss (a miss would leave the pool idle while the next images are looked up).
 */
const aheadOf = new Map<string, { pending: Set<string>; last: DatasetImageRow }>();

/** A request reached an image made or queued ahead: it is no longer pending, and the read-ahead moves on when it runs short. */
function reached(ctx: AppContext, row: LinkedDataset, link: string) {
  const ahead = aheadOf.get(row.id);
  if (!ahead?.pending.delete(link)) return;
  if (ahead.pending.size < READ_AHEAD / 2) readAhead(ctx, row, ahead.last, READ_AHEAD - ahead.pending.size);
}

/** Queues up to `n` images a person sees after `image` (browse order) that have no preview yet. */
function readAhead(ctx: AppContext, row: LinkedDataset, image: DatasetImageRow, n = READ_AHEAD) {
  const room = Math.min(n, MAX_AHEAD - pool.queuedAhead);
  if (room <= 0 || lookingAhead.has(row.id)) return;
  lookingAhead.add(row.id);
  void datasetsRepository
    .withoutThumbAfter(ctx.db, row.id, image, room)
    .then((next) => {
      let ahead = aheadOf.get(row.id);
      if (!next.length) {
        if (ahead && !ahead.pending.size) aheadOf.delete(row.id);
        return;
      }
      if (!ahead) aheadOf.set(row.id, (ahead = { pending: new Set(), last: next.at(-1)! }));
      ahead.last = next.at(-1)!;
      for (const i of next) {
        const link = linkKey(row.id, i.imageId);
        if (!hasThumbnail(i) || making.has(link) || madeAhead.has(link)) continue;
        pool.add(ctx, row, i, 'ahead');
        ahead.pending.add(link);
      }
    })
    .catch((err: unknown) => ctx.log.warn({ err, datasetId: row.id }, 'previews could not be queued ahead'))
    .finally(() => lookingAhead.delete(row.id));
}

/**
 * Previews made ahead that nobody asked for yet, answered from memory on their first request (no
 * database row or file to read then). At most `MAX_AHEAD` (about 4 MB); the oldest go first, and a
 * preview dropped here is still stored and recorded.
 */
const madeAhead = new Map<string, Buffer>();

function keepMadeAhead(job: Job, data: Buffer) {
  madeAhead.set(job.link, data);
  if (madeAhead.size <= MAX_AHEAD) return;
  const oldest = madeAhead.keys().next().value!;
  madeAhead.delete(oldest);
  for (const ahead of aheadOf.values()) ahead.pending.delete(oldest);
}

async function make(job: Job): Promise<void> {
  const { ctx, row, image, key } = job;
  let data: Buffer | null = null;
  try {
    data = await makeThumbnail(await readImageBytes(ctx, row, image));
    await ctx.blobs.put(key, data, { contentType: 'image/jpeg' });
  } catch (err) {
    ctx.log.warn({ err, datasetId: row.id, imageId: image.id }, 'thumbnail could not be made');
    making.delete(job.link);
    aheadOf.get(row.id)?.pending.delete(job.link);
    job.resolve(null);
    return;
  }
  if (job.priority === 'ahead') keepMadeAhead(job, data);
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
  if (jobs.length >= RECORD_BATCH) void flush(job.ctx);
  else flushTimer ??= setTimeout(flushAll, RECORD_AFTER_MS).unref();
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
    for (const j of jobs) if (making.get(j.link) === j) making.delete(j.link);
  }
}

/** Resolves once no preview is queued, in the making or waiting to be recorded (tests, shutdown). */
export async function previewsSettled(): Promise<void> {
  while (making.size > 0 || lookingAhead.size > 0) {
    flushAll();
    await new Promise((r) => setTimeout(r, 10));
  }
}
