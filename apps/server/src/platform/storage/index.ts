import path from 'node:path';
import type { BlobStore } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import type { S3BlobStoreConfig } from './s3-blob-store.js';

export * from './blob-store.js';
export { LocalBlobStore } from './local-blob-store.js';
export type { S3BlobStoreConfig } from './s3-blob-store.js';
export * from './signed-url.js';

/**
 * S3 when configured, otherwise files under `${dataDir}/blobs`. Call `init()` on the result before use.
 * The AWS SDK is imported only for S3 (about 20 MB of RSS a local install would carry for nothing).
 */
export async function createBlobStore(config: { s3: S3BlobStoreConfig | null; dataDir: string }): Promise<BlobStore> {
  if (!config.s3) return new LocalBlobStore(path.join(config.dataDir, 'blobs'));
  const { S3BlobStore } = await import('./s3-blob-store.js');
  return new S3BlobStore(config.s3);
}
