import { issueToken, readToken } from '../security/signing.js';

export interface UploadGrant {
  uid: string;
  path: string;
  bytes: number;
  exp: number;
}

/** The spec's getUploadToken: a signed grant to upload `bytes` bytes to `path`, valid 24 h. */
export function signUploadToken(grant: Omit<UploadGrant, 'exp'>, secret: string, now: Date, ttlMs = 86_400_000): string {
  return issueToken(secret, 'upload', grant, new Date(now.getTime() + ttlMs));
}

export function verifyUploadToken(token: string, secret: string, now: Date): UploadGrant | null {
  return readToken<Omit<UploadGrant, 'exp'>>(secret, 'upload', token, now);
}
