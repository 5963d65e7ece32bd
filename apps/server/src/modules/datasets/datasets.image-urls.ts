import { sign, verify } from '../../platform/security/signing.js';

/** Short signatures keep the many image URLs of a page small (192 bits). */
const SHORT = { length: 32 };

/** Stable per-image signature: the same URL every time, valid as long as the image exists. */
export function imageSignature(secret: string, datasetId: string, imageId: string) {
  return sign(secret, 'datasetImage', [datasetId, imageId], SHORT);
}

export function verifyImageSignature(secret: string, datasetId: string, imageId: string, sig: string) {
  return verify(secret, 'datasetImage', [datasetId, imageId], sig, SHORT);
}

/** The raw-image route's URL (datasets.routes.ts serves it; training clients download from it). */
export const imageUrl = (secret: string, datasetId: string, imageId: string, baseUrl = '') =>
  `${baseUrl}/v1/datasets/${datasetId}/images/${imageId}/raw?sig=${imageSignature(secret, datasetId, imageId)}`;
