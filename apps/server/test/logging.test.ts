import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp, loggerOptions } from '../src/app.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildApiKey, buildUser } from './support/factories.js';

let t: TestApp;
let app: FastifyInstance;
const lines: string[] = [];
beforeAll(async () => {
  t = await createTestApp();
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      lines.push(chunk.toString('utf8'));
      cb();
    },
  });
  // A second app on the same database, logging at info level into memory.
  app = await buildApp({
    config: t.config,
    database: t.database,
    clock: t.clock,
    logger: { ...loggerOptions({ ...t.config, logLevel: 'info' }), stream: sink },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await t.close();
});

describe('logs keep secrets out', () => {
  it('redacts tokens and signatures in URLs, and API keys and cookies in headers', async () => {
    const u = await buildUser(app);
    const key = (await buildApiKey(app, u.cookie, { name: 'k' })).key;
    await app.inject({ method: 'GET', url: '/v1/auth/verify?token=verify-secret-123456' });
    await app.inject({ method: 'GET', url: '/reset-password?token=reset-secret-654321' });
    await app.inject({ method: 'GET', url: '/v1/blobs/users/x/y.bin?exp=1&sig=signature-secret' });
    await app.inject({ method: 'GET', url: '/v1/users/me', headers: { 'x-api-key': key } });
    const log = lines.join('');
    expect(log).toContain('/v1/auth/verify?token=[redacted]');
    // One line per request, written once it is answered (with the status and the time it took).
    expect(log).not.toContain('incoming request');
    const me = lines
      .map((l) => JSON.parse(l) as { msg: string; req?: { url: string }; res?: { statusCode: number }; responseTime?: number })
      .filter((l) => l.req?.url === '/v1/users/me');
    expect(me).toHaveLength(1);
    expect(me[0]).toMatchObject({ msg: 'request completed', res: { statusCode: 200 } });
    expect(me[0]!.responseTime).toBeGreaterThanOrEqual(0);
    for (const secret of ['verify-secret-123456', 'reset-secret-654321', 'signature-secret', key.slice(3), u.cookie.split('=')[1]!]) {
      expect(log).not.toContain(secret);
    }
  });

  it('an API key a client put in the URL path is not written to the log (ADR 0023)', async () => {
    const u = await buildUser(app);
    const created = await buildApiKey(app, u.cookie, { name: 'k' });
    await app.inject({ method: 'GET', url: `/v1/models/${created.key}` });
    await app.inject({ method: 'GET', url: `/api/${created.legacyKey}/settings` });
    const log = lines.join('');
    expect(log).toContain('/v1/models/[scrubbed]');
    expect(log).not.toContain(created.key.slice(3));
  });
});
