import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { machineParallelism, makeThumbnail } from './processing/index.js';
import { readImageBytes } from './datasets.image-source.js';
import { datasetsRepository, type DatasetImageRow, type DatasetRow } from './datasets.repository.js';

/**
 * Thumbnails are made lazily, on first view, and cached (issue 18: "or lazily on first view, cached").
 * A dataset is Ready after checks and statistics; nobody waits for 5,000 previews of which a person
 * looks at a page. The first request for an image's thumbnail reads its bytes (datasets.image-source.ts), makes a 256 px JPEG with sharp, stores it under the dataset's
 * `thumbs/` folder and records its key; later requests stream the stored file. One sharp call in flight
 * per core, whatever the number of requests; two requests for the same image make it once.
 */

/** Formats sharp decodes here (BMP has no decoder, HEIC/PFM/DNG are kept unverified): the others get no thumbnail. */
export function hasThumbnail(image: Pick<DatasetImageRow, 'format'>): boolean {
  return !!image.format && image.format !== 'bmp';
}

export type Thumbnail = { kind: 'stored'; stream: Readable; bytes: number } | { kind: 'made'; data: Buffer };

/** The thumbnail of an image whose access the caller already checked; null when it cannot have one. */
export async function thumbnailOf(ctx: AppContext, row: DatasetRow, image: DatasetImageRow): Promise<Thumbnail | null> {
  if (!hasThumbnail(image) || (!row.storageKey && !image.blobKey)) return null;
  if (image.thumbKey) {
    const stored = await ctx.blobs.get(image.thumbKey).catch(() => null);
    if (stored) return { kind: 'stored', stream: stored.stream, bytes: stored.bytes };
    // Recorded but gone (a reprocess or a store moved): made again below.
  }
  const key = `${blobKeys.datasetThumbs(row.userId, row.id)}${image.id}.jpg`;
  let pending = making.get(key);
  if (!pending) {
    pending = makeAndStore(ctx, row, image, key).finally(() => making.delete(key));
    making.set(key, pending);
  }
  const data = await pending;
  return data ? { kind: 'made', data } : null;
}

const making = new Map<string, Promise<Buffer | null>>();

async function makeAndStore(ctx: AppContext, row: DatasetRow, image: DatasetImageRow, key: string): Promise<Buffer | null> {
  const data = await sharpSlots
    .run(async () => makeThumbnail(await readImageBytes(ctx, row, image)))
    .catch((err: unknown) => {
      ctx.log.warn({ err, datasetId: row.id, imageId: image.id }, 'thumbnail could not be made');
      return null;
    });
  if (!data) return null;
  await ctx.blobs.put(key, data, { contentType: 'image/jpeg' });
  // A reprocess meanwhile replaced the images (new ids): this file belongs to nobody, so it goes.
  if (!(await datasetsRepository.setThumbKey(ctx.db, row.id, image.id, key))) await ctx.blobs.delete(key).catch(() => undefined);
  return data;
}

/** At most `size` calls at once; the rest wait in order. */
function slots(size: number) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= size) await new Promise<void>((resolve) => waiting.push(resolve));
      running++;
      try {
        return await work();
      } finally {
        running--;
        waiting.shift()?.();
      }
    },
  };
}

const sharpSlots = slots(machineParallelism());
