import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueToken, readToken, sign, signExpiring, verify, verifyExpiring } from './signing.js';

const SECRET = 'test-secret-test-secret-test-secret-0123';
const NOW = new Date('2026-11-23T12:00:00Z');
const exp = Math.floor(NOW.getTime() / 1000) + 60;

describe('signing (one purpose-tagged HMAC scheme)', () => {
  it('a signature made for one purpose never validates another', () => {
    const sig = sign(SECRET, 'compat', ['/v1/x', exp]);
    expect(verify(SECRET, 'compat', ['/v1/x', exp], sig)).toBe(true);
    expect(verify(SECRET, 'blob', ['/v1/x', exp], sig)).toBe(false);
    expect(verify(SECRET, 'compat', ['/v1/y', exp], sig)).toBe(false);
    expect(verify(`${SECRET}x`, 'compat', ['/v1/x', exp], sig)).toBe(false);
  });

  it('blob links keep their v1 format (links already stored in profiles stay valid)', () => {
    const v1 = createHmac('sha256', SECRET)
      .update(JSON.stringify(['sightline/blob/v1', 'users/u/p.png', exp, null]))
      .digest('base64url');
    expect(signExpiring(SECRET, 'blob', 'users/u/p.png', exp, [null])).toBe(v1);
  });

  it('expiring signatures: ok, expired at the second, invalid when tampered even if expired', () => {
    const sig = signExpiring(SECRET, 'compat', '/v1/a', exp);
    expect(verifyExpiring(SECRET, 'compat', '/v1/a', String(exp), sig, NOW)).toBe('ok');
    expect(verifyExpiring(SECRET, 'compat', '/v1/a', exp, sig, new Date(exp * 1000))).toBe('expired');
    expect(verifyExpiring(SECRET, 'compat', '/v1/a', exp + 1, sig, NOW)).toBe('invalid');
    expect(verifyExpiring(SECRET, 'compat', '/v1/b', exp, sig, new Date(exp * 1000 + 1))).toBe('invalid');
    expect(verifyExpiring(SECRET, 'compat', '/v1/a', '1e9', sig, NOW)).toBe('invalid');
  });

  it('short signatures compare the same prefix', () => {
    const sig = sign(SECRET, 'datasetImage', ['d', 'i'], { length: 32 });
    expect(sig).toHaveLength(32);
    expect(verify(SECRET, 'datasetImage', ['d', 'i'], sig, { length: 32 })).toBe(true);
    expect(verify(SECRET, 'datasetImage', ['d', 'j'], sig, { length: 32 })).toBe(false);
  });

  it('tokens carry their payload and expiry; forged, re-purposed or expired ones read as null', () => {
    const token = issueToken(SECRET, 'upload', { uid: 'u', bytes: 5 }, new Date(NOW.getTime() + 60_000));
    expect(readToken<{ uid: string; bytes: number }>(SECRET, 'upload', token, NOW)).toEqual({ uid: 'u', bytes: 5, exp });
    expect(readToken(SECRET, 'compat', token, NOW)).toBeNull();
    expect(readToken(SECRET, 'upload', token, new Date(NOW.getTime() + 61_000))).toBeNull();
    const [body, sig] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ uid: 'v', bytes: 5, exp })).toString('base64url');
    expect(readToken(SECRET, 'upload', `${forged}.${sig}`, NOW)).toBeNull();
    expect(readToken(SECRET, 'upload', `${body}.${sig}.x`, NOW)).toBeNull();
    expect(readToken(SECRET, 'upload', 'garbage', NOW)).toBeNull();
  });
});
