import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { isMonitoringInitialised } from '../src/platform/monitoring/index.js';
import { openTestDatabase, testConfig } from './support/harness.js';

/**
 * Error monitoring (docs/deploy.md §8): a local HTTP server plays the Sentry ingest endpoint. Without
 * SENTRY_DSN the SDK is never initialised and nothing is sent; with it, a server error arrives as
 * an event whose cookies, authorization and API-key headers, secret query parameters and keys in
 * the message are scrubbed.
 */

interface Envelope {
  auth: string;
  raw: string;
  items: Array<{ header: { type: string }; payload: Record<string, unknown> }>;
}

const envelopes: Envelope[] = [];
const ingest = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    let body = Buffer.concat(chunks);
    if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
    const raw = body.toString('utf8');
    const lines = raw.split('\n').filter(Boolean);
    const items: Envelope['items'] = [];
    for (let i = 1; i + 1 < lines.length; i += 2) items.push({ header: JSON.parse(lines[i]!), payload: JSON.parse(lines[i + 1]!) });
    envelopes.push({ auth: String(req.headers['x-sentry-auth'] ?? new URL(req.url!, 'http://x').search), raw, items });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let port = 0;

const SECRETS = {
  cookie: 'sl_session=cookie-SECRET-value-123',
  bearer: 'ul_bearerSECRET0123456789',
  apiKey: 'ul_headerSECRET9876543210',
  queryKey: 'querySECRETkey42',
  queryToken: 'querySECRETtoken42',
};

async function appWith(env: Record<string, string>) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-monitoring-'));
  const { database, drop } = await openTestDatabase();
  const app = await buildApp({ config: testConfig(dataDir, { JOBS_ENABLED: 'false', ...env }), database });
  // A route that fails the way a bug does (a 500 from an unexpected throw), carrying a key in its message.
  app.get('/v1/test-only/boom', { schema: { hide: true } }, async () => {
    throw new Error(`database exploded while reading ${SECRETS.bearer}`);
  });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
const boom = (app: Awaited<ReturnType<typeof appWith>>['app']) =>
  app.inject({
    method: 'GET',
    url: `/v1/test-only/boom?api_key=${SECRETS.queryKey}&token=${SECRETS.queryToken}&page=2`,
    headers: { cookie: SECRETS.cookie, authorization: `Bearer ${SECRETS.bearer}`, 'x-api-key': SECRETS.apiKey, 'user-agent': 'monitoring-test' },
  });

beforeAll(async () => {
  await new Promise<void>((resolve) => ingest.listen(0, '127.0.0.1', resolve));
  port = (ingest.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => ingest.close(() => resolve()));
});

describe('error monitoring', () => {
  it('without SENTRY_DSN: no SDK, nothing sent, the remote config says monitoring is off', async () => {
    const s = await appWith({});
    const res = await boom(s.app);
    expect(res.statusCode).toBe(500);
    expect((await s.app.inject({ method: 'GET', url: '/v1/config' })).json().data.monitoring).toBeNull();
    await s.close();
    await new Promise((r) => setTimeout(r, 300));
    expect(isMonitoringInitialised()).toBe(false);
    expect(envelopes).toHaveLength(0);
  }, 120_000); // a fresh database per app: slow on a loaded runner

  it('with SENTRY_DSN: a server error reaches the ingest endpoint with every secret scrubbed', async () => {
    const dsn = `http://publickey@127.0.0.1:${port}/1`;
    const s = await appWith({ SENTRY_DSN: dsn });
    expect(isMonitoringInitialised()).toBe(true);
    const config = (await s.app.inject({ method: 'GET', url: '/v1/config' })).json().data;
    expect(config.monitoring).toEqual({ dsn, tracesSampleRate: 0.3, environment: 'staging', release: expect.any(String) });
    // 4xx are the caller's business, not errors of the server: not reported.
    expect((await s.app.inject({ method: 'GET', url: '/v1/users/me' })).statusCode).toBe(401);
    const res = await boom(s.app);
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain('exploded'); // the client never sees internals
    await s.close(); // flushes the SDK

    const deadline = Date.now() + 10_000;
    const events = () => envelopes.flatMap((e) => e.items.filter((i) => i.header.type === 'event').map((i) => ({ ...i, envelope: e })));
    while (events().length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const found = events();
    expect(found).toHaveLength(1);
    const { payload, envelope } = found[0]!;
    expect(envelope.auth).toContain('sentry_key=publickey');
    const exception = (payload.exception as { values: Array<{ type: string; value: string }> }).values[0]!;
    expect(exception.type).toBe('Error');
    expect(exception.value).toBe('database exploded while reading [scrubbed]');
    const request = payload.request as { method: string; url: string; query_string: string; headers: Record<string, string>; cookies?: unknown };
    expect(request.method).toBe('GET');
    expect(request.url).toMatch(/\/v1\/test-only\/boom$/);
    expect(request.query_string).toBe('api_key=[scrubbed]&token=[scrubbed]&page=2');
    expect(request.headers.cookie).toBe('[scrubbed]');
    expect(request.headers.authorization).toBe('[scrubbed]');
    expect(request.headers['x-api-key']).toBe('[scrubbed]');
    expect(request.headers['user-agent']).toBe('monitoring-test');
    expect(request.cookies).toBeUndefined();
    expect((payload.tags as Record<string, string>).route).toBe('/v1/test-only/boom');
    // Nothing anywhere in what left the server carries a secret.
    for (const e of envelopes) for (const secret of Object.values(SECRETS)) expect(e.raw).not.toContain(secret.replace(/^sl_session=/, ''));
  }, 120_000);
});
