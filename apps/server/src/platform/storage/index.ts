import path from 'node:path';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { S3BlobStore, type S3BlobStoreConfig } from './s3-blob-store.js';

export * from './blob-store.js';
export { blobDownloadRoutes, type BlobDownloadOptions } from './blob-download.routes.js';
export { LocalBlobStore } from './local-blob-store.js';
export { S3BlobStore, type S3BlobStoreConfig } from './s3-blob-store.js';
export * from './signed-url.js';

/** S3 when configured, otherwise files under `${dataDir}/blobs`. Call `init()` on the result before use. */
export function createBlobStore(config: { s3: S3BlobStoreConfig | null; dataDir: string }): BlobStore {
  return config.s3 ? new S3BlobStore(config.s3) : new LocalBlobStore(path.join(config.dataDir, 'blobs'));
}
