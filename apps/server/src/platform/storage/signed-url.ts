import { expirySeconds, signExpiring, verifyExpiring, type SignatureVerdict } from '../security/signing.js';
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
  /** The access version of the item the blob belongs to (signing.ts accessVersion): sent as `a`, signed. */
  access?: string;
}

export interface VerifyBlobUrlInput {
  key: string;
  exp: string | number;
  sig: string;
  name?: string;
  access?: string;
  secret: string;
  now: Date;
}

export type BlobUrlVerdict = SignatureVerdict;

/** Segment-wise encoding keeps the slashes readable and decodes back to exactly the same key. */
export function blobUrlPath(key: string): string {
  return BLOB_ROUTE_PREFIX + key.split('/').map(encodeURIComponent).join('/');
}

export function signBlobUrl({ key, expiresAt, filename, secret, baseUrl, access }: SignBlobUrlInput): string {
  assertBlobKey(key);
  const exp = expirySeconds(expiresAt);
  const name = filename || undefined;
  const query = new URLSearchParams({ exp: String(exp), sig: signExpiring(secret, 'blob', key, exp, signedExtra(name, access)) });
  if (name) query.set('name', name);
  if (access) query.set('a', access);
  return `${baseUrl.replace(/\/+$/, '')}${blobUrlPath(key)}?${query}`;
}

/** A bad signature is reported as 'invalid' even when also expired, so 'expired' only ever describes genuine links. */
export function verifyBlobUrl({ key, exp, sig, name, access, secret, now }: VerifyBlobUrlInput): BlobUrlVerdict {
  return verifyExpiring(secret, 'blob', key, exp, sig, now, signedExtra(name, access));
}

/** Links without an access version (profile, project and team images) keep their v1 field list. */
const signedExtra = (name: string | undefined, access: string | undefined) => (access ? [name || null, access] : [name || null]);
