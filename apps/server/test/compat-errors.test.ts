import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { PLAN_LIMITS } from '@sightline/contracts';
import { datasets, modelFiles } from '../src/platform/db/schema.js';
import { newId } from '../src/platform/ids.js';
import { fakeWeights, rawRequest, requestsMultipart, send, sha256, shapes3Dataset, startLiveServer, userWithKey, type LiveServer } from './support/wire.js';

/** Bad inputs on both training protocols, over real HTTP: every refusal is JSON and leaves no trace. */

let s: LiveServer;
let alice: Awaited<ReturnType<typeof userWithKey>>;
let bob: Awaited<ReturnType<typeof userWithKey>>;
let aliceModel: string;
let datasetId: string;

beforeAll(async () => {
  s = await startLiveServer();
  alice = await userWithKey(s.t);
  bob = await userWithKey(s.t);
  datasetId = (await shapes3Dataset(s.t, alice.user.id)).id;
  const res = await s.t.app.inject({
    method: 'POST',
    url: '/v1/models',
    headers: { cookie: alice.cookie },
    payload: { dataset: { id: datasetId }, lineage: { architecture: { name: 'yolov8n' } } },
  });
  aliceModel = res.json().data.id;
});
afterAll(async () => {
  await s?.close();
});

const hub = (key: string, path: string, body: string | Buffer, contentType = 'application/json') =>
  send(`${s.origin}${path}`, { method: 'POST', headers: { 'x-api-key': key, 'Content-Type': contentType }, body });
const platform = (key: string, body: object) =>
  send(`${s.origin}/api/webhooks/training/metrics`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
const finalUpload = (key: string, id: string, content: Buffer) => {
  const mp = requestsMultipart(
    [
      ['epoch', '0'],
      ['type', 'final'],
      ['map', '0.0'],
    ],
    { name: 'best.pt', content },
  );
  return hub(key, `/v1/models/${id}/upload`, mp.body, mp.contentType);
};
const files = async (id: string) => s.t.database.db.select().from(modelFiles).where(eq(modelFiles.modelId, id));
const isJson = (r: { headers: Record<string, unknown> }) => expect(String(r.headers['content-type'])).toMatch(/application\/json/);

async function platformRun(key: string, name = `run${newId().slice(0, 5)}`) {
  const res = await platform(key, { event: 'training_started', project: 'errs', name, data: { trainArgs: {} } });
  expect(res.status).toBe(200);
  return res.json() as { modelId: string; runId: string };
}

describe('unknown model id', () => {
  it('HUB calls answer 404 JSON', async () => {
    const unknown = newId();
    for (const [path, body] of [
      [`/v1/agent/heartbeat/models/${unknown}`, '{"agent": "x", "agentId": null}'],
      [`/v1/models/${unknown}`, '{"metrics": {"0": "{}"}, "type": "metrics"}'],
    ] as const) {
      const res = await hub(alice.legacyKey, path, body);
      expect(res.status, path).toBe(404);
      isJson(res);
    }
    const get = await send(`${s.origin}/v1/models/${unknown}`, { headers: { 'x-api-key': alice.legacyKey } });
    expect(get.status).toBe(404);
    isJson(get);
  });

  it('Platform events and upload URLs answer 404 {error} (never 401, which would stop tracking)', async () => {
    const res = await platform(alice.key, { event: 'epoch_end', modelId: newId(), data: { epoch: 0, metrics: {} } });
    expect(res.status).toBe(404);
    expect(typeof res.json().error).toBe('string');
    const up = await send(`${s.origin}/api/webhooks/models/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${alice.key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ filename: 'best.pt', modelId: newId() }),
    });
    expect(up.status).toBe(404);
    expect(
      (await send(`${s.origin}/api/webhooks/models/nobody/none/none/download`, { method: 'HEAD', headers: { Authorization: `Bearer ${alice.key}` } })).status,
    ).toBe(404);
    expect((await send(`${s.origin}/api/datasets/nobody/none/export`, { headers: { Authorization: `Bearer ${alice.key}` } })).status).toBe(404);
  });
});

describe("another user's model", () => {
  it('cannot be reported for, read privately, stopped or resolved by ul://', async () => {
    expect((await hub(bob.legacyKey, `/v1/agent/heartbeat/models/${aliceModel}`, '{"agent": "x", "agentId": null}')).status).toBe(404);
    expect((await hub(bob.legacyKey, `/v1/models/${aliceModel}`, '{"metrics": {"0": "{}"}, "type": "metrics"}')).status).toBe(404);
    expect((await finalUpload(bob.legacyKey, aliceModel, fakeWeights(1000, 'bob'))).status).toBe(404);
    expect((await send(`${s.origin}/v1/models/${aliceModel}`, { headers: { 'x-api-key': bob.legacyKey } })).status).toBe(404);
    expect(
      (
        await send(`${s.origin}/v1/models/${aliceModel}/stop`, {
          method: 'POST',
          headers: { 'x-api-key': bob.legacyKey, 'Content-Type': 'application/json' },
          body: '{}',
        })
      ).status,
    ).toBe(404);
    const { modelId } = await platformRun(alice.key);
    expect((await platform(bob.key, { event: 'epoch_end', modelId, data: { epoch: 0, metrics: {} } })).status).toBe(404);
    expect((await send(`${s.origin}/v1/models/${modelId}/console`, { headers: { 'x-api-key': bob.legacyKey } })).status).toBe(404);
    // Another user's private dataset does not resolve either.
    const ds = await s.t.database.db.select().from(datasets).where(eq(datasets.id, datasetId));
    expect(
      (
        await send(`${s.origin}/api/webhooks/datasets/${alice.user.username}/${ds[0]!.slug}/export`, {
          method: 'HEAD',
          headers: { Authorization: `Bearer ${bob.key}` },
        })
      ).status,
    ).toBe(404);
    expect(await files(aliceModel)).toHaveLength(0);
  });

  it("a public model over a private dataset does not hand out the dataset's link to others", async () => {
    const res = await s.t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: alice.cookie },
      payload: { dataset: { id: datasetId }, meta: { privacy: 'public' } },
    });
    const id = res.json().data.id;
    const mine = (await send(`${s.origin}/v1/models/${id}`, { headers: { 'x-api-key': alice.legacyKey } })).json().data;
    expect(mine.data).toMatch(/\.zip\?/);
    for (const headers of [{ 'x-api-key': bob.legacyKey }, {}] as Array<Record<string, string>>) {
      const theirs = await send(`${s.origin}/v1/models/${id}`, { headers });
      expect(theirs.status).toBe(200);
      expect(theirs.json().data).toMatchObject({ data: null, train_args: null });
    }
    // Reporting for it still needs the owner's key.
    expect((await hub(bob.legacyKey, `/v1/agent/heartbeat/models/${id}`, '{"agent": "x", "agentId": null}')).status).toBe(403);
  });
});

describe('revoked key', () => {
  it('is refused with 401 JSON on both protocols', async () => {
    const carol = await userWithKey(s.t);
    const revoke = await s.t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${carol.keyId}`, headers: { cookie: carol.cookie } });
    expect(revoke.statusCode).toBe(200);
    // As hub-sdk sends it: no body, no Content-Type (trace seq 1).
    const auth = await send(`${s.origin}/v1/auth`, { method: 'POST', headers: { 'x-api-key': carol.legacyKey } });
    expect(auth.status).toBe(401);
    expect(auth.json().success).toBe(false);
    expect((await hub(carol.legacyKey, `/v1/agent/heartbeat/models/${aliceModel}`, '{}')).status).toBe(401);
    const settings = await send(`${s.origin}/api/settings`, { headers: { Authorization: `Bearer ${carol.key}` } });
    expect(settings.status).toBe(401);
    expect(typeof settings.json().error).toBe('string');
    expect((await platform(carol.key, { event: 'training_started', project: 'x', name: 'y', data: {} })).status).toBe(401);
  });
});

describe('malformed metrics', () => {
  it('HUB: non-JSON values, non-integer epochs, wrong type are 400 and store nothing', async () => {
    for (const body of [
      '{"metrics": {"0": "not json"}, "type": "metrics"}',
      '{"metrics": {"0": "[1, 2]"}, "type": "metrics"}',
      '{"metrics": {"first": "{}"}, "type": "metrics"}',
      '{"metrics": {}, "type": "metrics"}',
      '{"metrics": {"0": "{}"}, "type": "export"}',
      'not json at all',
    ]) {
      const res = await hub(alice.legacyKey, `/v1/models/${aliceModel}`, body);
      expect(res.status, body).toBe(400);
      isJson(res);
    }
    const m = await send(`${s.origin}/v1/models/${aliceModel}/metrics`, { headers: { 'x-api-key': alice.legacyKey } });
    expect(m.json().data).toEqual([]);
  });

  it('Platform: missing epoch, bad chunkId, unknown event are 400 {error}', async () => {
    const { modelId } = await platformRun(alice.key);
    for (const body of [
      { event: 'epoch_end', modelId, data: { metrics: {} } },
      { event: 'epoch_end', modelId, data: { epoch: -1 } },
      { event: 'console_output', modelId, data: { chunkId: 'one', content: 'x' } },
      { event: 'checkpoint_saved', modelId, data: { modelPath: `users/${bob.user.id}/models/x/y.pt` } },
      { event: 'no such event!', modelId, data: {} },
      { modelId, data: {} },
    ]) {
      const res = await platform(alice.key, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(typeof res.json().error).toBe('string');
    }
  });
});

describe('upload larger than the storage left', () => {
  it('HUB multipart and Platform PUT answer 403 InsufficientStorageError and keep nothing', async () => {
    const dave = await userWithKey(s.t);
    // Fill dave's storage up to 50 kB below the plan limit.
    const now = s.t.clock.now();
    await s.t.database.db
      .insert(datasets)
      .values({ id: newId(), userId: dave.user.id, slug: 'big', name: 'big', bytes: PLAN_LIMITS.free.storageBytes - 50_000, createdAt: now, updatedAt: now });
    const model = (await s.t.app.inject({ method: 'POST', url: '/v1/models', headers: { cookie: dave.cookie }, payload: {} })).json().data.id;
    const res = await finalUpload(dave.legacyKey, model, fakeWeights(80_000, 'too big'));
    expect(res.status).toBe(403);
    expect(res.json().error).toMatchObject({ code: 'InsufficientStorageError', details: { available: 50_000 } });
    expect(await files(model)).toHaveLength(0);
    const doc = (await send(`${s.origin}/v1/models/${model}`, { headers: { 'x-api-key': dave.legacyKey } })).json().data;
    expect(doc.status).toBe('new');

    const { modelId, runId } = await platformRun(dave.key);
    const up = (
      await send(`${s.origin}/api/webhooks/models/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${dave.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ filename: 'best.pt', modelId, runId }),
      })
    ).json();
    const u = new URL(up.uploadUrl);
    const big = fakeWeights(80_000, 'too big');
    const put = await rawRequest(
      s.port,
      `PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Length: ${big.length}\r\nTransfer-Encoding: chunked\r\n\r\n`,
      big,
    );
    expect(put.status).toBe(403);
    expect(JSON.parse(put.body)).toMatchObject({ code: 'InsufficientStorageError' });
    expect(await s.t.app.ctx.blobs.head(up.gcsPath)).toBeNull();
    // A file that fits still goes through.
    expect((await finalUpload(dave.legacyKey, model, fakeWeights(20_000, 'fits'))).status).toBe(200);
  });
});

describe('interrupted upload, then retried', () => {
  it('HUB: a body cut mid-file leaves the model as it was; the retry stores the whole file', async () => {
    const id = (await s.t.app.inject({ method: 'POST', url: '/v1/models', headers: { cookie: alice.cookie }, payload: {} })).json().data.id;
    const content = fakeWeights(400_000, 'interrupted');
    const mp = requestsMultipart(
      [
        ['epoch', '0'],
        ['type', 'final'],
        ['map', '0.0'],
      ],
      { name: 'best.pt', content },
    );
    const head = `POST /v1/models/${id}/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${alice.legacyKey}\r\nContent-Type: ${mp.contentType}\r\nContent-Length: ${mp.body.length}\r\n\r\n`;
    await rawRequest(s.port, head, mp.body, { abortAfter: 200_000 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await files(id)).toHaveLength(0);
    const before = (await send(`${s.origin}/v1/models/${id}`, { headers: { 'x-api-key': alice.legacyKey } })).json().data;
    expect(before).toMatchObject({ status: 'new', has_best_weights: false });
    expect(before.dates.train.end).toBeNull();
    expect((await finalUpload(alice.legacyKey, id, content)).status).toBe(200);
    const after = (await send(`${s.origin}/v1/models/${id}`, { headers: { 'x-api-key': alice.legacyKey } })).json().data;
    expect(after.status).toBe('trained');
    expect(sha256((await send(after.weights)).body)).toBe(sha256(content));
  });

  it('Platform: a PUT cut mid-body stores nothing; the retried PUT of the same URL completes', async () => {
    const { modelId, runId } = await platformRun(alice.key);
    const up = (
      await send(`${s.origin}/api/webhooks/models/upload`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${alice.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ filename: 'best.pt', modelId, runId }),
      })
    ).json();
    const u = new URL(up.uploadUrl);
    const content = fakeWeights(300_000, 'put');
    const head = `PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${content.length}\r\nTransfer-Encoding: chunked\r\n\r\n`;
    await rawRequest(s.port, head, content, { abortAfter: 100_000 });
    await new Promise((r) => setTimeout(r, 200));
    expect(await s.t.app.ctx.blobs.head(up.gcsPath)).toBeNull();
    // checkpoint_saved for a path with nothing behind it is refused, so the client counts the upload as failed.
    expect((await platform(alice.key, { event: 'checkpoint_saved', modelId, data: { modelPath: up.gcsPath, runId } })).status).toBe(400);
    const retry = await rawRequest(s.port, head, content);
    expect(retry.status).toBe(200);
    expect((await platform(alice.key, { event: 'checkpoint_saved', modelId, data: { modelPath: up.gcsPath, runId } })).status).toBe(200);
    const f = await files(modelId);
    expect(f).toHaveLength(1);
    expect(f[0]!.bytes).toBe(content.length);
    // A forged or foreign upload URL is refused before any byte is stored.
    const forged = await rawRequest(s.port, head.replace(/sig=[^ ]+/, 'sig=AAAA'), content);
    expect(forged.status).toBe(403);
  });
});
