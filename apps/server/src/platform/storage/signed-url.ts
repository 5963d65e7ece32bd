import { createHmac, timingSafeEqual } from 'node:crypto';
import { assertBlobKey } from './blob-store.js';

export const BLOB_ROUTE_PREFIX = '/v1/blobs/';

export interface SignBlobUrlInput {
  key: string;
  expiresAt: Date;
  /** Download name sent as Content-Disposition; signed so a link cannot be re-labelled. */
  filename?: string;
  secret: string;
  /** Public origin of the server, e.g. `https://hub.example.com`. */
  baseUrl: string;
}

export interface VerifyBlobUrlInput {
  key: string;
  exp: string | number;
  sig: string;
  name?: string;
  secret: string;
  now: Date;
}

export type BlobUrlVerdict = 'ok' | 'expired' | 'invalid';

/** Segment-wise encoding keeps the slashes readable and decodes back to exactly the same key. */
export function blobUrlPath(key: string): string {
  return BLOB_ROUTE_PREFIX + key.split('/').map(encodeURIComponent).join('/');
}

function signature(secret: string, key: string, exp: number, name: string | undefined): string {
  if (!secret) throw new Error('Blob URL secret must not be empty');
  // JSON framing keeps distinct (key, exp, name) triples from ever producing the same signed payload.
  return createHmac('sha256', secret)
    .update(JSON.stringify(['sightline/blob/v1', key, exp, name ?? null]))
    .digest('base64url');
}

export function signBlobUrl({ key, expiresAt, filename, secret, baseUrl }: SignBlobUrlInput): string {
  assertBlobKey(key);
  const exp = Math.floor(expiresAt.getTime() / 1000);
  const name = filename || undefined;
  const query = new URLSearchParams({ exp: String(exp), sig: signature(secret, key, exp, name) });
  if (name) query.set('name', name);
  return `${baseUrl.replace(/\/+$/, '')}${blobUrlPath(key)}?${query}`;
}

/** A bad signature is reported as 'invalid' even when also expired, so 'expired' only ever describes genuine links. */
export function verifyBlobUrl({ key, exp, sig, name, secret, now }: VerifyBlobUrlInput): BlobUrlVerdict {
  const expSeconds = typeof exp === 'number' ? exp : /^\d{1,15}$/.test(exp) ? Number(exp) : NaN;
  if (!Number.isSafeInteger(expSeconds)) return 'invalid';
  // Compared as text: base64url decoding ignores stray characters, so several strings decode to the same bytes.
  const expected = Buffer.from(signature(secret, key, expSeconds, name || undefined));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
  return now.getTime() >= expSeconds * 1000 ? 'expired' : 'ok';
}
