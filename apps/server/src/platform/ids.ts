import { createHash, randomBytes, randomInt } from 'node:crypto';
import { BASE62, ID_LENGTH } from '@sightline/contracts';

/** 20-char base62 id (what the ultralytics client assumes for model ids). */
export function newId(): string {
  let out = '';
  for (let i = 0; i < ID_LENGTH; i++) out += BASE62[randomInt(62)];
  return out;
}

/** An opaque secret token (sessions, mail links) and its storage hash. */
export function newToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}
