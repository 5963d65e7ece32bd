import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The one signing scheme of the server: HMAC-SHA256 over JSON `[purpose tag, ...fields]`, base64url.
 * The purpose tag keeps a signature made for one use (a blob link) from ever validating another
 * (an upload grant); JSON framing keeps distinct field lists from producing the same payload.
 * Expiring signatures carry their expiry (unix seconds) among the signed fields.
 */
const TAGS = {
  /** /v1/blobs links (kept at v1: links stored in profiles stay valid) */
  blob: 'sightline/blob/v1',
  /** links for clients that send no auth header (datasets, checkpoints, training files) */
  compat: 'sightline/compat/v1',
  /** the spec's getUploadToken grant */
  upload: 'sightline/upload/v2',
  /** the device cookie of a browser that signed in to an account (its own sign-in throttle, ADR 0024) */
  device: 'sightline/device/v1',
  /** raw-image links of a dataset's images: expiring and bound to the dataset's access version (ADR 0014) */
  datasetImage: 'sightline/dataset-image/v3',
  /** a copied team invite link's token, derived from the invite id so its inviters can copy it again (ADR 0028) */
  teamInvite: 'sightline/team-invite/v1',
} as const;

export type SigningPurpose = keyof typeof TAGS;
export type SignatureVerdict = 'ok' | 'expired' | 'invalid';

export interface SignOptions {
  /** Keeps only the first N characters (short links); verification compares the same prefix. */
  length?: number;
}

export function sign(secret: string, purpose: SigningPurpose, fields: readonly unknown[], opts: SignOptions = {}): string {
  if (!secret) throw new Error('Signing secret must not be empty');
  const sig = createHmac('sha256', secret)
    .update(JSON.stringify([TAGS[purpose], ...fields]))
    .digest('base64url');
  return opts.length ? sig.slice(0, opts.length) : sig;
}

/** Constant-time check; compared as text, since base64url decoding ignores stray characters. */
export function verify(secret: string, purpose: SigningPurpose, fields: readonly unknown[], given: string, opts: SignOptions = {}): boolean {
  const expected = Buffer.from(sign(secret, purpose, fields, opts));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * A short digest of an item's access state (privacy, team, trash): links to the item's files sign
 * it, and serving them compares it with the item's state now, so a privacy change, a move to the
 * trash or to another team revokes every link handed out before (ADR 0014).
 */
export function accessVersion(state: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(state)).digest('base64url').slice(0, 12);
}

/** Expiry in unix seconds, as signed and sent in links. */
export const expirySeconds = (expiresAt: Date) => Math.floor(expiresAt.getTime() / 1000);

/** Signature of `subject` (a key, a path) valid until `exp` (unix seconds): signs `[subject, exp, ...extra]`. */
export function signExpiring(secret: string, purpose: SigningPurpose, subject: string, exp: number, extra: readonly unknown[] = []): string {
  return sign(secret, purpose, [subject, exp, ...extra]);
}

/**
 * 'invalid' for a malformed expiry or a bad signature (even when also expired, so 'expired' only
 * ever describes genuine links), else 'expired' once `now` reaches the expiry.
 */
export function verifyExpiring(
  secret: string,
  purpose: SigningPurpose,
  subject: string,
  exp: string | number,
  sig: string,
  now: Date,
  extra: readonly unknown[] = [],
): SignatureVerdict {
  const seconds = typeof exp === 'number' ? exp : /^\d{1,15}$/.test(exp) ? Number(exp) : NaN;
  if (!Number.isSafeInteger(seconds)) return 'invalid';
  if (!verify(secret, purpose, [subject, seconds, ...extra], sig)) return 'invalid';
  return now.getTime() >= seconds * 1000 ? 'expired' : 'ok';
}

/** A self-contained token `<base64url JSON>.<signature>` carrying `payload` and its expiry. */
export function issueToken<T extends object>(secret: string, purpose: SigningPurpose, payload: T, expiresAt: Date): string {
  const body = Buffer.from(JSON.stringify({ ...payload, exp: expirySeconds(expiresAt) })).toString('base64url');
  return `${body}.${sign(secret, purpose, [body])}`;
}

/** The payload of a genuine, unexpired token (with its `exp`), else null. */
export function readToken<T extends object>(secret: string, purpose: SigningPurpose, token: string, now: Date): (T & { exp: number }) | null {
  const [body, sig, extra] = token.split('.');
  if (!body || !sig || extra !== undefined || !verify(secret, purpose, [body], sig)) return null;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T & { exp: number };
    if (typeof payload.exp !== 'number' || payload.exp * 1000 < now.getTime()) return null;
    return payload;
  } catch {
    return null;
  }
}
