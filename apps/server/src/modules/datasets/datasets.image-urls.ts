import { expirySeconds, sign, verify } from '../../platform/security/signing.js';

/** Short signatures keep the many image URLs of a page small (192 bits). */
const SHORT = { length: 32 };

/**
 * Per-image signature over the dataset's access version and an expiry (ADR 0014): a link dies when
 * it expires or when the dataset's privacy, team or trash state changes, whichever comes first.
 */
export function imageSignature(secret: string, datasetId: string, imageId: string, access: string, exp: number) {
  return sign(secret, 'datasetImage', [datasetId, imageId, access, exp], SHORT);
}

/** Checked against the dataset's access version now, so a link of an earlier state fails. */
export function verifyImageSignature(secret: string, datasetId: string, imageId: string, access: string, exp: number, sig: string) {
  return verify(secret, 'datasetImage', [datasetId, imageId, access, exp], sig, SHORT);
}

/** The raw-image route's URL (datasets.routes.ts serves it; training clients download from it). */
export function imageUrl(secret: string, datasetId: string, imageId: string, link: { access: string; expiresAt: Date }, baseUrl = '') {
  return signedImagePath(secret, datasetId, imageId, link, baseUrl, 'raw');
}

/** The image's 256 px preview, made on first view (datasets.thumbnails.ts); the same signature as the original's. */
export function thumbnailUrl(secret: string, datasetId: string, imageId: string, link: { access: string; expiresAt: Date }) {
  return signedImagePath(secret, datasetId, imageId, link, '', 'thumb');
}

function signedImagePath(
  secret: string,
  datasetId: string,
  imageId: string,
  link: { access: string; expiresAt: Date },
  baseUrl: string,
  view: 'raw' | 'thumb',
) {
  const exp = expirySeconds(link.expiresAt);
  // The holder part of the access (ADR 0023) travels as `h`: the route rebuilds the signed access from the dataset's version and it.
  const holder = link.access.includes('.') ? `&h=${link.access.slice(link.access.indexOf('.') + 1)}` : '';
  return `${baseUrl}/v1/datasets/${datasetId}/images/${imageId}/${view}?sig=${imageSignature(secret, datasetId, imageId, link.access, exp)}&exp=${exp}${holder}`;
}
