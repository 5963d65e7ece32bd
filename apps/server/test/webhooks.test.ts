import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseWebhookSignature, WEBHOOK_TOLERANCE_S } from '@sightline/contracts';
import { setResolver } from '../src/modules/webhooks/webhooks.service.js';
import { buildZip } from '../src/modules/datasets/processing/test-archives.js';
import { userWithKey } from './support/wire.js';
import { createTestApp, FIXTURES, type TestApp } from './support/harness.js';
import { buildUser, buildWebhook } from './support/factories.js';

/**
 * Outgoing webhooks against a real receiver on a loopback port (ADR 0016): the documented signature
 * recipe, retries with exponential backoff (TestClock), a 10 s receiver that must not hold the
 * server, and URLs that resolve to loopback / link-local addresses refused at save and at delivery.
 */

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
}
type Mode = 'ok' | 'fail' | 'slow';

class Receiver {
  mode: Mode = 'ok';
  received: Received[] = [];
  private server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      this.received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
      if (this.mode === 'fail') res.writeHead(500).end('boom');
      else if (this.mode === 'slow') setTimeout(() => res.writeHead(200).end('late'), 10_000).unref();
      else res.writeHead(204).end();
    });
  });
  private sockets = new Set<Socket>();
  url = '';
  async start() {
    this.server.on('connection', (s) => {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }
  async stop() {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

const TIMEOUT_MS = 3000;
const RETRY_BASE_MS = 1000;
const MAX_ATTEMPTS = 4;

let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
const receiver = new Receiver();

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, cookie: string, payload?: unknown) => t.app.inject({ method, url, headers: { cookie }, payload: payload as never });
const drain = () => t.app.ctx.jobs.drain();
const allowPrivate = async (allow: boolean) =>
  expect((await call('PUT', '/v1/admin/webhooks/settings', admin.cookie, { allowPrivateUrls: allow })).statusCode).toBe(200);

/** A real domain event: the user creates a model and deletes it (model.deleted). */
async function deleteAModel(cookie: string) {
  const created = await call('POST', '/v1/models', cookie, { meta: { name: `m-${Date.now()}` } });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.id as string;
  expect((await call('DELETE', `/v1/models/${id}`, cookie)).statusCode).toBe(200);
  return id;
}
async function deliveriesOf(cookie: string, hookId: string) {
  const res = await call('GET', `/v1/webhooks/${hookId}/deliveries`, cookie);
  expect(res.statusCode).toBe(200);
  expect(res.json().data.nextCursor).toBeNull();
  return res.json().data.items as Array<{
    id: string;
    status: string;
    attempts: number;
    statusCode: number | null;
    responseMs: number | null;
    error: string | null;
    lastAttemptAt: string | null;
    nextAttemptAt: string | null;
    redeliveryOf: string | null;
    attemptLog: Array<{ attempt: number; at: string; statusCode: number | null; error: string | null }>;
  }>;
}

/** The recipe of docs/deploy.md, as a receiver would write it. */
function verifySignature(secret: string, header: string, rawBody: string, nowS: number) {
  const parsed = parseWebhookSignature(header);
  if (!parsed || Math.abs(nowS - parsed.t) > WEBHOOK_TOLERANCE_S) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${parsed.t}.${rawBody}`).digest('hex'));
  return parsed.v1.some((v) => v.length === expected.length && timingSafeEqual(Buffer.from(v), expected));
}

beforeAll(async () => {
  await receiver.start();
  t = await createTestApp({ WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), WEBHOOK_RETRY_BASE_MS: String(RETRY_BASE_MS), WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS) });
  admin = await buildUser(t.app); // the first account is the admin
  expect(admin.user.roles).toContain('admin');
});
afterAll(async () => {
  await t?.close();
  await receiver.stop();
});
beforeEach(() => {
  receiver.mode = 'ok';
  receiver.received = [];
  setResolver(t.app.ctx, null);
});

describe('URLs that reach internal addresses', () => {
  it('are refused at save: 127.0.0.1, 169.254.169.254, a name resolving to them, mapped IPv6, localhost', async () => {
    await allowPrivate(false);
    const u = await buildUser(t.app);
    setResolver(t.app.ctx, async (host) => {
      if (host === 'loop.example.test') return [{ address: '127.0.0.1', family: 4 }];
      if (host === 'metadata.example.test') return [{ address: '169.254.169.254', family: 4 }];
      if (host === 'mixed.example.test')
        return [
          { address: '93.184.216.34', family: 4 },
          { address: '10.1.2.3', family: 4 },
        ];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    });
    for (const url of [
      `${receiver.url}/hook`,
      'http://169.254.169.254/latest/meta-data/',
      'http://loop.example.test/hook',
      'http://metadata.example.test/latest/meta-data/',
      'http://mixed.example.test/hook',
      'http://[::ffff:127.0.0.1]/hook',
      'http://[::1]:8080/hook',
      'http://0x7f000001/hook',
    ]) {
      const res = await call('POST', '/v1/webhooks', u.cookie, { url, events: ['model.deleted'] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error.code, url).toBe('webhook/url-refused');
    }
    setResolver(t.app.ctx, null);
    const viaDns = await call('POST', '/v1/webhooks', u.cookie, { url: 'http://localhost:9/hook', events: ['model.deleted'] });
    expect(viaDns.json().error.code).toBe('webhook/url-refused');
    expect((await call('GET', '/v1/webhooks', u.cookie)).json().data).toEqual([]);
    // Only an admin decides; a user cannot flip the setting.
    expect((await call('PUT', '/v1/admin/webhooks/settings', u.cookie, { allowPrivateUrls: true })).statusCode).toBe(403);
  });

  it('are refused at delivery when the name is rebound to 127.0.0.1 or 169.254.169.254 after saving', async () => {
    await allowPrivate(false);
    const u = await buildUser(t.app);
    let answer = '93.184.216.34';
    setResolver(t.app.ctx, async () => [{ address: answer, family: 4 }]);
    const hook = await buildWebhook(t.app, u.cookie, { url: 'http://rebind.example.test/hook', events: ['model.deleted'] });
    for (const internal of ['127.0.0.1', '169.254.169.254']) {
      answer = internal;
      await deleteAModel(u.cookie);
      await drain();
    }
    const rows = await deliveriesOf(u.cookie, hook.id);
    expect(rows).toHaveLength(2);
    // Keyset pages, newest first (ADR 0042): a page of one, then the one before it by the cursor, then the end.
    const first = (await call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=1`, u.cookie)).json().data;
    expect(first.items.map((d: { id: string }) => d.id)).toEqual([rows[0]!.id]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await call('GET', `/v1/webhooks/${hook.id}/deliveries?limit=1&cursor=${first.nextCursor}`, u.cookie)).json().data;
    expect(second.items.map((d: { id: string }) => d.id)).toEqual([rows[1]!.id]);
    expect(second.nextCursor).toBeNull();
    expect((await call('GET', `/v1/webhooks/${hook.id}/deliveries?cursor=nope`, u.cookie)).statusCode).toBe(400);
    for (const d of rows) {
      expect(d.status).toBe('failed');
      expect(d.statusCode).toBeNull();
      expect(d.error).toMatch(/^Refused: rebind\.example\.test resolves to (127\.0\.0\.1|169\.254\.169\.254)/);
    }
    expect(receiver.received).toHaveLength(0);
  });
});

describe('deliveries to a local receiver (admin allowed private URLs)', () => {
  beforeEach(() => allowPrivate(true));

  it('are signed as documented: t=…,v1=HMAC-SHA256(secret, t + "." + body)', async () => {
    const u = await buildUser(t.app);
    const other = await buildUser(t.app);
    const hook = await buildWebhook(t.app, u.cookie, { url: `${receiver.url}/hook`, events: ['model.deleted', 'dataset.processed'], description: 'CI' });
    expect(hook.secret).toMatch(/^whsec_[\w-]{20,}$/);
    await buildWebhook(t.app, other.cookie, { url: `${receiver.url}/other`, events: ['model.deleted'] });
    // The secret is shown once: never in the list.
    const listed = (await call('GET', '/v1/webhooks', u.cookie)).json().data;
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain(hook.secret);

    const modelId = await deleteAModel(u.cookie);
    await drain();
    expect(receiver.received).toHaveLength(1); // the other user's endpoint hears nothing of u's model
    const got = receiver.received[0]!;
    const header = String(got.headers['sightline-signature']);
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(hook.secret, header, got.body, Math.floor(Date.now() / 1000))).toBe(true);
    expect(verifySignature(hook.secret, header, got.body.replace('model.deleted', 'model.deleteD'), Math.floor(Date.now() / 1000))).toBe(false);
    expect(verifySignature('whsec_wrong', header, got.body, Math.floor(Date.now() / 1000))).toBe(false);
    expect(got.headers['sightline-event']).toBe('model.deleted');
    expect(got.headers['content-type']).toBe('application/json');
    const payload = JSON.parse(got.body);
    expect(payload).toMatchObject({ type: 'model.deleted', data: { model: { id: modelId }, permanent: false } });
    expect(payload.id).toMatch(/^evt_/);

    const [d] = await deliveriesOf(u.cookie, hook.id);
    expect(d).toMatchObject({ status: 'succeeded', attempts: 1, statusCode: 204, error: null });
    expect(got.headers['sightline-delivery']).toBe(d!.id);
    expect(d!.responseMs).toBeGreaterThanOrEqual(0);
    expect(d!.responseMs).toBeLessThan(1000);
    // Someone else's webhook is a 404, deliveries included.
    expect((await call('GET', `/v1/webhooks/${hook.id}/deliveries`, other.cookie)).statusCode).toBe(404);
    // Admins see every endpoint and delivery; users are refused there.
    const all = (await call('GET', '/v1/admin/webhooks', admin.cookie)).json().data as Array<{ id: string; owner: { id: string } }>;
    expect(all.find((w) => w.id === hook.id)?.owner.id).toBe(u.user.id);
    expect((await call('GET', '/v1/admin/webhooks/deliveries', admin.cookie)).json().data.items.some((x: { id: string }) => x.id === d!.id)).toBe(true);
    expect((await call('GET', '/v1/admin/webhooks', u.cookie)).statusCode).toBe(403);
  });

  it('a receiver answering 500 gets retries with exponential backoff, then the delivery fails; redeliver sends it again', async () => {
    const u = await buildUser(t.app);
    const hook = await buildWebhook(t.app, u.cookie, { url: `${receiver.url}/flaky`, events: ['model.deleted'] });
    receiver.mode = 'fail';
    await deleteAModel(u.cookie);

    const gaps: number[] = [];
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await drain();
      expect(receiver.received).toHaveLength(attempt);
      const [d] = await deliveriesOf(u.cookie, hook.id);
      expect(d!.attempts).toBe(attempt);
      expect(d!.statusCode).toBe(500);
      if (attempt === MAX_ATTEMPTS) {
        expect(d!.status).toBe('failed');
        expect(d!.nextAttemptAt).toBeNull();
        break;
      }
      expect(d!.status).toBe('retrying');
      const gap = Date.parse(d!.nextAttemptAt!) - Date.parse(d!.lastAttemptAt!);
      gaps.push(gap);
      // Not due yet: nothing is sent early.
      const due = Date.parse(d!.nextAttemptAt!) - t.clock.now().getTime();
      t.clock.advance(due - 300);
      await drain();
      expect(receiver.received).toHaveLength(attempt);
      t.clock.advance(300);
    }
    // The delay runs from the end of the failed attempt (its own duration comes on top): 1×, 2×, 4× the base.
    [RETRY_BASE_MS, 2 * RETRY_BASE_MS, 4 * RETRY_BASE_MS].forEach((delay, i) => {
      expect(gaps[i]).toBeGreaterThanOrEqual(delay);
      expect(gaps[i]).toBeLessThan(delay + 500);
    });
    const [failed] = await deliveriesOf(u.cookie, hook.id);
    expect(failed!.attemptLog.map((a) => [a.attempt, a.statusCode, a.error])).toEqual([
      [1, 500, 'HTTP 500'],
      [2, 500, 'HTTP 500'],
      [3, 500, 'HTTP 500'],
      [4, 500, 'HTTP 500'],
    ]);
    // Every attempt is signed afresh with its own timestamp.
    const stamps = receiver.received.map((r) => parseWebhookSignature(String(r.headers['sightline-signature']))!.t);
    expect(stamps[3]! - stamps[0]!).toBeGreaterThanOrEqual(6);

    receiver.mode = 'ok';
    const again = await call('POST', `/v1/webhooks/${hook.id}/deliveries/${failed!.id}/redeliver`, u.cookie);
    expect(again.statusCode).toBe(202);
    await drain();
    const [latest] = await deliveriesOf(u.cookie, hook.id);
    expect(latest).toMatchObject({ status: 'succeeded', statusCode: 204, redeliveryOf: failed!.id, attempts: 1 });
    expect(JSON.parse(receiver.received.at(-1)!.body).id).toBe(JSON.parse(receiver.received[0]!.body).id);
  });

  it('a receiver that takes 10 s does not hold the server, and the attempt times out cleanly', async () => {
    const u = await buildUser(t.app);
    const hook = await buildWebhook(t.app, u.cookie, { url: `${receiver.url}/slow`, events: ['model.deleted'] });
    receiver.mode = 'slow';
    await deleteAModel(u.cookie);
    const started = Date.now();
    let attemptOver = false;
    const draining = drain().then(() => (attemptOver = true));
    while (receiver.received.length === 0) await new Promise((r) => setTimeout(r, 10));
    // The delivery is in flight: the server goes on answering.
    const latencies: number[] = [];
    for (let i = 0; i < 10; i++) {
      const s = performance.now();
      const res = await call('GET', '/v1/webhooks', u.cookie);
      latencies.push(performance.now() - s);
      expect(res.statusCode).toBe(200);
    }
    const alive = await t.app.inject({ method: 'GET', url: '/alive' });
    expect(alive.statusCode).toBeLessThan(500);
    expect(attemptOver).toBe(false); // all of that while the delivery was still waiting on the receiver
    expect(Math.max(...latencies)).toBeLessThan(500);
    await draining;
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(took).toBeLessThan(TIMEOUT_MS + 3000);
    const [d] = await deliveriesOf(u.cookie, hook.id);
    expect(d).toMatchObject({ status: 'retrying', attempts: 1, statusCode: null, error: `Timed out after ${TIMEOUT_MS} ms` });
    expect(d!.responseMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect((await call('DELETE', `/v1/webhooks/${hook.id}`, u.cookie)).statusCode).toBe(200); // no retry left for later tests
    console.log(`slow receiver: ${latencies.length} requests meanwhile, max ${Math.max(...latencies).toFixed(1)} ms; attempt ended after ${took} ms`);
  });

  it('dataset processing announces dataset.processed and dataset.failed (tus upload, process job)', async () => {
    const u = await buildUser(t.app);
    const hook = await buildWebhook(t.app, u.cookie, { url: `${receiver.url}/datasets`, events: ['dataset.processed', 'dataset.failed'] });
    const png = fs.readFileSync(path.join(FIXTURES, 'test-images/test_0000.png'));
    const yaml = { name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' };
    const good = buildZip([
      yaml,
      { name: 'images/train/x.png', data: png },
      { name: 'labels/train/x.txt', data: '0 0.5 0.5 0.2 0.2\n' },
      { name: 'images/val/y.png', data: png },
      { name: 'labels/val/y.txt', data: '1 0.5 0.5 0.1 0.1\n' },
    ]);
    const bad = buildZip([yaml, { name: 'images/train/x.png', data: png }, { name: 'labels/train/x.txt', data: '7 0.5 0.5 0.2 0.2\n' }]);
    const ids: string[] = [];
    for (const [name, zip] of [
      ['good.zip', good],
      ['bad.zip', bad],
    ] as const) {
      const d = await call('POST', '/v1/datasets', u.cookie, { meta: { name }, task: 'detect' });
      expect(d.statusCode, d.body).toBe(201);
      const id = d.json().data.id as string;
      ids.push(id);
      const tok = await call('POST', '/v1/uploads/token', u.cookie, { path: `users/${u.user.id}/datasets/${id}/${name}`, bytes: zip.length });
      const token = tok.json().data.token as string;
      const b64 = (s: string) => Buffer.from(s).toString('base64');
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/uploads/tus',
        headers: {
          cookie: u.cookie,
          'tus-resumable': '1.0.0',
          'upload-length': String(zip.length),
          'upload-metadata': `token ${b64(token)},filename ${b64(name)}`,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const loc = String(created.headers.location);
      const url = loc.startsWith('http') ? new URL(loc).pathname : loc;
      const patch = await t.app.inject({
        method: 'PATCH',
        url,
        headers: { cookie: u.cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
        payload: zip,
      });
      expect(patch.statusCode).toBe(204);
      expect((await call('POST', `/v1/datasets/${id}/process`, u.cookie)).statusCode).toBe(202);
      await drain(); // the processing job, then the delivery job it queued
      await drain();
    }
    const bodies = receiver.received.map((r) => JSON.parse(r.body) as { type: string; data: { dataset: { id: string; status: string }; error?: string } });
    expect(bodies.map((b) => [b.type, b.data.dataset.id, b.data.dataset.status])).toEqual([
      ['dataset.processed', ids[0], 'Ready'],
      ['dataset.failed', ids[1], 'Failed'],
    ]);
    expect(bodies[1]!.data.error).toBeTruthy();
    expect((await deliveriesOf(u.cookie, hook.id)).every((d) => d.status === 'succeeded')).toBe(true);
  });

  it('a training run over the Platform client protocol announces started, each epoch, and completed', async () => {
    const u = await userWithKey(t);
    await buildWebhook(t.app, u.cookie, {
      url: `${receiver.url}/training`,
      events: ['training.started', 'training.epoch', 'training.completed', 'training.failed'],
    });
    const report = async (body: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/training/metrics',
        headers: { authorization: `Bearer ${u.key}` },
        payload: body as never,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json() as { modelId?: string };
    };
    const { modelId } = await report({ event: 'training_started', project: 'hooks', name: 'exp', data: { trainArgs: { epochs: 2 } } });
    for (const epoch of [0, 1])
      await report({ event: 'epoch_end', modelId, data: { epoch, metrics: { 'metrics/mAP50-95(B)': 0.1 * (epoch + 1), 'val/box_loss': 1 } } });
    await report({ event: 'training_complete', modelId, data: { results: { metrics: { 'metrics/mAP50-95(B)': 0.2 } } } });
    await report({ event: 'training_complete', modelId, data: { results: { metrics: {} } } }); // a repeated end says nothing new
    await drain();
    const bodies = receiver.received.map(
      (r) => JSON.parse(r.body) as { type: string; data: { model: { id: string }; epoch?: number; outcome?: string; metrics?: Record<string, number> } },
    );
    expect(bodies.map((b) => [b.type, b.data.model.id, b.data.epoch ?? b.data.outcome ?? null])).toEqual([
      ['training.started', modelId, null],
      ['training.epoch', modelId, 0],
      ['training.epoch', modelId, 1],
      ['training.completed', modelId, 'completed'],
    ]);
    expect(bodies[2]!.data.metrics).toEqual({ 'metrics/mAP50-95(B)': 0.2 });
  });

  it('owners edit, disable and delete; instance-wide endpoints are for admins and hear everyone', async () => {
    const u = await buildUser(t.app);
    expect((await call('POST', '/v1/webhooks', u.cookie, { url: `${receiver.url}/x`, events: ['model.deleted'], scope: 'instance' })).statusCode).toBe(403);
    const instance = await buildWebhook(t.app, admin.cookie, { url: `${receiver.url}/instance`, events: ['model.deleted'], scope: 'instance' });
    const own = await buildWebhook(t.app, u.cookie, { url: `${receiver.url}/own`, events: ['model.deleted'] });
    const off = await call('PATCH', `/v1/webhooks/${own.id}`, u.cookie, { active: false });
    expect(off.json().data.active).toBe(false);
    await deleteAModel(u.cookie);
    await drain();
    expect(receiver.received.map((r) => r.headers['sightline-event'])).toEqual(['model.deleted']);
    expect((await deliveriesOf(admin.cookie, instance.id))[0]!.status).toBe('succeeded');
    expect(await deliveriesOf(u.cookie, own.id)).toEqual([]);
    expect((await call('DELETE', `/v1/webhooks/${instance.id}`, u.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/webhooks/${own.id}`, u.cookie)).statusCode).toBe(200);
    expect((await call('DELETE', `/v1/webhooks/${instance.id}`, admin.cookie)).statusCode).toBe(200);
  });
});
