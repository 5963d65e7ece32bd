import { createHmac, timingSafeEqual } from 'node:crypto';

export interface UploadGrant {
  uid: string;
  path: string;
  bytes: number;
  exp: number;
}

/** The spec's getUploadToken: a signed grant to upload `bytes` bytes to `path`, valid 24 h. */
export function signUploadToken(grant: Omit<UploadGrant, 'exp'>, secret: string, now: Date, ttlMs = 86_400_000): string {
  const body = Buffer.from(JSON.stringify({ ...grant, exp: Math.floor((now.getTime() + ttlMs) / 1000) })).toString('base64url');
  return `${body}.${createHmac('sha256', `upload:${secret}`).update(body).digest('base64url')}`;
}

export function verifyUploadToken(token: string, secret: string, now: Date): UploadGrant | null {
  const [body, sig] = token.split('.');
  if (!body || !sig) return null;
  const expected = createHmac('sha256', `upload:${secret}`).update(body).digest();
  const given = Buffer.from(sig, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const grant = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as UploadGrant;
    if (grant.exp * 1000 < now.getTime()) return null;
    return grant;
  } catch {
    return null;
  }
}
