import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { modelStatus } from '@sightline/contracts';
import type { DomainEvent } from '../src/platform/realtime/event-bus.js';
import { fakeWeights, loadTrace, rawRequest, send, sha256, shapes3Dataset, startLiveServer, userWithKey, type LiveServer } from './support/wire.js';

/**
 * Conformance of the Ultralytics Platform protocol (ultralytics ≥ 8.4.115): the recorded composite
 * trace is replayed over real HTTP (the checkpoint PUT over a raw socket, with the client's
 * Content-Length + Transfer-Encoding quirk intact), then the request sequences platform-protocol.md
 * describes for other client generations, checked through the public API.
 */

interface TraceRecord {
  seq: number;
  phase: string;
  method: string;
  target: string;
  headers: Array<[string, string]>;
  framing?: string;
  body?: { json?: unknown; binary?: { size: number; sha256: string } };
  response: { status: number; headers: Record<string, string>; body: Record<string, unknown> | null };
}

let s: LiveServer;
let alice: Awaited<ReturnType<typeof userWithKey>>;
let shapes3Id = '';

beforeAll(async () => {
  s = await startLiveServer();
  // The trace's owner is "alice"; each test file has its own database, so the name is free.
  alice = await userWithKey(s.t, 'alice');
  shapes3Id = (await shapes3Dataset(s.t, alice.user.id, 'shapes3')).id;
});
afterAll(async () => {
  await s?.close();
});

const bearer = () => ({ Authorization: `Bearer ${alice.key}`, 'Content-Type': 'application/json' });
const webhook = (body: object) => send(`${s.origin}/api/webhooks/training/metrics`, { method: 'POST', headers: bearer(), body: JSON.stringify(body) });

/** The client's PUT: Content-Length and Transfer-Encoding: chunked, with the body NOT chunk-encoded. */
function quirkyPut(url: string, content: Buffer, opts: { abortAfter?: number } = {}) {
  const u = new URL(url);
  const head =
    `PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUser-Agent: python-requests/2.28.1\r\nAccept-Encoding: gzip, deflate, br\r\nAccept: */*\r\n` +
    `Connection: keep-alive\r\nContent-Type: application/octet-stream\r\nContent-Length: ${content.length}\r\nTransfer-Encoding: chunked\r\n\r\n`;
  // Sent in 64 KiB pieces like safe_upload's generator.
  const pieces: Buffer[] = [];
  for (let i = 0; i < content.length; i += 65536) pieces.push(content.subarray(i, i + 65536));
  return rawRequest(s.port, head, pieces, opts);
}

function parseNdjson(buf: Buffer) {
  return buf
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('Platform protocol: recorded trace (ultralytics 8.4.60 composite, raw-HTTP generation)', () => {
  it('replays login, a tracked run, ul:// model download and a cancelled run', async () => {
    const trace = loadTrace<TraceRecord>('platform-ultralytics-8.4.60-composite.jsonl');
    expect(trace).toHaveLength(213);
    const ids = new Map<string, string>();
    // Longest first: a storage path contains the model and run ids that are substituted on their own.
    const sub = (text: string) => [...ids.entries()].sort((x, y) => y[0].length - x[0].length).reduce((acc, [a, b]) => acc.split(a).join(b), text);
    let ndjsonUrl = '';
    let images = new Map<string, string>();
    let modelUrl = '';
    const uploads: Array<{ uploadUrl: string; gcsPath: string }> = [];
    const putContent = new Map<string, Buffer>();

    const imageBatch: TraceRecord[] = [];
    const flushImages = async () => {
      if (!imageBatch.length) return;
      // The client fetches up to 128 images at once (aiohttp); fire the whole batch concurrently.
      const batch = imageBatch.splice(0);
      const results = await Promise.all(batch.map((rec) => send(images.get(rec.target.split('?')[0]!.split('/').pop()!)!)));
      for (const [i, res] of results.entries()) {
        expect(res.status, `image seq ${batch[i]!.seq}`).toBe(200);
        expect(res.body.length).toBeGreaterThan(0);
        expect(res.body.subarray(0, 2).equals(Buffer.from([0xff, 0xd8])) || res.body.subarray(1, 4).toString() === 'PNG').toBe(true);
      }
    };

    for (const rec of trace) {
      if (/\/images\//.test(rec.target)) {
        imageBatch.push(rec);
        continue;
      }
      await flushImages();
      if (rec.phase === 'train-cancelled' && rec.seq === 202) {
        // The user presses Stop on the model page while epoch 0 runs.
        const stop = await s.t.app.inject({ method: 'POST', url: `/v1/models/${ids.get('mdl_739737352e2e')}/stop`, headers: { cookie: alice.cookie } });
        expect(stop.statusCode).toBe(200);
      }
      const headers = rec.headers
        .filter(([k]) => !/^(host|content-length|transfer-encoding)$/i.test(k))
        .map(([k, v]) => [k, v.replace('<INVALID_API_KEY>', `ul_${'0'.repeat(40)}`).replace('<API_KEY>', alice.key)] as [string, string]);
      let res: { status: number; headers: Record<string, unknown>; body: Buffer };
      if (rec.method === 'PUT') {
        const up = uploads.shift()!;
        const content = fakeWeights(rec.body!.binary!.size, rec.body!.binary!.sha256);
        putContent.set(up.gcsPath, content);
        expect(rec.framing).toBe('content-length+transfer-encoding:chunked');
        const raw = await quirkyPut(up.uploadUrl, content);
        res = { status: raw.status, headers: {}, body: Buffer.from(raw.body) };
      } else {
        let url: string;
        if (rec.target.startsWith('/storage/datasets/')) url = ndjsonUrl;
        else if (rec.target.startsWith('/storage/downloads/')) url = modelUrl;
        else url = `${s.origin}${sub(rec.target)}`;
        const body = rec.body?.json ? Buffer.from(sub(JSON.stringify(rec.body.json)).split('{ORIGIN}').join(s.origin.slice(7))) : undefined;
        res = await send(url, { method: rec.method, headers, body });
      }
      const why = `seq ${rec.seq} ${rec.method} ${rec.target}: ${res.body.toString('utf8', 0, 300)}`;
      expect(res.status, why).toBe(rec.response.status);

      const expected = rec.response.body;
      if (rec.target.startsWith('/api/webhooks/') && rec.method !== 'HEAD' && res.status !== 302) {
        expect(res.headers['content-type'], why).toMatch(/application\/json/);
        const json = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
        for (const k of Object.keys(expected ?? {})) expect(json, `${why} key ${k}`).toHaveProperty(k);
        if (expected && 'cancelled' in expected) expect(json.cancelled, why).toBe(expected.cancelled);
        if (expected && 'modelSlug' in expected) expect(json.modelSlug).toBe(expected.modelSlug);
        if (expected?.modelId) ids.set(String(expected.modelId), String(json.modelId));
        if (expected?.runId) ids.set(String(expected.runId), String(json.runId));
        if (expected?.uploadUrl) {
          uploads.push({ uploadUrl: String(json.uploadUrl), gcsPath: String(json.gcsPath) });
          ids.set(String(expected.gcsPath), String(json.gcsPath));
        }
      }
      if (res.status === 302) {
        const location = String((res.headers as Record<string, string>).location);
        expect(location, why).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
        if (rec.target.includes('/datasets/')) {
          expect(new URL(location).pathname).toMatch(/\/shapes3\.v1\.ndjson$/);
          ndjsonUrl = location;
        } else {
          expect(new URL(location).pathname).toMatch(/\/run1-[A-Za-z0-9]{8}\.pt$/);
          modelUrl = location;
        }
      }
      if (rec.target.startsWith('/storage/datasets/')) {
        const lines = parseNdjson(res.body);
        expect(lines).toHaveLength((expected as { ndjson: { lines: number } } | null)?.ndjson.lines ?? 161);
        expect(lines[0]).toMatchObject({
          type: 'dataset',
          task: 'detect',
          class_names: { '0': expect.any(String), '1': expect.any(String), '2': expect.any(String) },
        });
        images = new Map();
        for (const l of lines.slice(1)) {
          // `<imageId>_<name>` so validation rows map back to images (traces README discrepancy 2).
          const [id, ...rest] = String(l.file).split('_');
          expect(id).toMatch(/^[A-Za-z0-9]+$/);
          images.set(rest.join('_'), String(l.url));
          expect(new URL(String(l.url)).search).toMatch(/sig=/);
        }
        expect([...images.keys()].filter((n) => n.startsWith('train_'))).toHaveLength(120);
        expect(res.headers['content-length']).toBe(String(res.body.length));
      }
      if (rec.target.startsWith('/storage/downloads/')) {
        expect(sha256(res.body)).toBe(sha256(putContent.get(ids.get('models/mdl_74d5b54592f9/run_0017bafbdda5/best.pt')!)!));
      }
    }

    // Through the public API: the first run is trained with its weights, metrics and console.
    const run1 = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${ids.get('mdl_74d5b54592f9')}`, headers: { cookie: alice.cookie } })).json().data;
    expect(run1.slug).toBe('run1');
    expect(run1.status).toBe('trained');
    expect(modelStatus(run1.dates, s.t.clock.now())).toBe('Trained');
    expect(run1.names).toEqual(['red_square', 'green_circle', 'blue_triangle']);
    expect(run1.training).toMatchObject({ protocol: 'platform', outcome: 'completed', epochsTotal: 2, bestEpoch: 1 });
    expect(run1.config).toMatchObject({ epochs: 2, imageSize: 64, batchSize: 8, device: 'cpu', cache: false });
    expect(run1.lineage.architecture.name).toBe('yolov8n');
    const m1 = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${run1.id}/metrics`, headers: { cookie: alice.cookie } })).json().data;
    // Epoch 2 was the final validation of best.pt (no val/* losses), not a third epoch.
    expect(m1.map((r: { epoch: number }) => r.epoch)).toEqual([0, 1]);
    expect(run1.metrics.epochs).toBe(2);
    const c1 = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${run1.id}/console`, headers: { cookie: alice.cookie } })).json().data;
    expect(c1.map((c: { chunkId: number }) => c.chunkId)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));

    // The cancelled run: remembered, answered on every later epoch_end, and recorded as cancelled.
    const cancelled = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${ids.get('mdl_739737352e2e')}`, headers: { cookie: alice.cookie } })).json()
      .data;
    expect(cancelled.slug).toBe('cancel1');
    expect(cancelled.training).toMatchObject({ outcome: 'cancelled', cancelRequested: true });
    expect(cancelled.files.map((f: { kind: string }) => f.kind)).toEqual(['best']);
    expect(cancelled.project.id).toBe(run1.project.id);
  });
});

describe('Platform protocol: sequences of platform-protocol.md', () => {
  it('a 3-epoch run: console out of order, duplicated last epoch_end, periodic and final quirky PUTs, completion', async () => {
    const started = await webhook({
      event: 'training_started',
      project: 'alice/Pets Two',
      name: 'exp',
      data: {
        trainArgs: {
          task: 'detect',
          model: 'yolo11n.pt',
          data: 'ul://alice/datasets/shapes3',
          epochs: '3',
          imgsz: '640',
          batch: '-1',
          cache: 'None',
          device: 'None',
        },
        epochs: 3,
        device: 'cpu',
        environment: { ultralyticsVersion: '8.4.120' },
      },
    });
    expect(started.status).toBe(200);
    const { modelId, runId, modelSlug, cancelled } = started.json();
    expect({ modelSlug, cancelled }).toEqual({ modelSlug: 'exp', cancelled: false });
    // Same name again: a new model per run with the next slug.
    const again = (await webhook({ event: 'training_started', project: 'alice/pets-two', name: 'exp', data: { trainArgs: {} } })).json();
    expect(again.modelSlug).toBe('exp-2');

    // Console chunks arrive out of order (10-thread pool), one twice, one early by project/name only (8.4.115–119).
    for (const id of [3, 1, 4, 2, 2])
      expect((await webhook({ event: 'console_output', modelId, data: { chunkId: id, content: `line ${id}\u001b[K`, lineCount: 1 } })).json()).toEqual({
        ok: true,
      });
    expect(
      (await webhook({ event: 'console_output', project: 'alice/pets-two', name: 'exp-2', data: { chunkId: 1, content: 'early', lineCount: 1 } })).status,
    ).toBe(404);
    // Without modelId the newest run of that project and name is meant: the one just started.
    expect(
      (await webhook({ event: 'console_output', project: 'alice/pets-two', name: 'exp', data: { chunkId: 1, content: 'by name', lineCount: 1 } })).status,
    ).toBe(200);
    const early = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${again.modelId}/console`, headers: { cookie: alice.cookie } })).json().data;
    expect(early.map((c: { content: string }) => c.content)).toEqual(['by name']);

    const epoch = (e: number, extra: object = {}) => ({
      event: 'epoch_end',
      modelId,
      data: {
        epoch: e,
        metrics: {
          'train/box_loss': 1 - e / 10,
          'metrics/mAP50(B)': 0.2 * (e + 1),
          'metrics/mAP50-95(B)': 0.1 * (e + 1),
          'val/box_loss': 1.5 - e / 10,
          lr: 0.01,
        },
        system: { cpu: 50, gpus: {} },
        fitness: 0.1 * (e + 1),
        ...(e === 0 ? { modelInfo: { parameters: 2_600_000, gflops: 6.5, speedMs: 1.2 } } : {}),
        ...extra,
      },
    });
    for (const e of [0, 1]) expect((await webhook(epoch(e))).json()).toEqual({ ok: true, cancelled: false });

    // Periodic checkpoint (last.pt), then checkpoint_saved for this run.
    const periodic = (
      await send(`${s.origin}/api/webhooks/models/upload`, { method: 'POST', headers: bearer(), body: JSON.stringify({ filename: 'last.pt', modelId, runId }) })
    ).json();
    expect(periodic.uploadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/compat\/uploads\//);
    const lastPt = fakeWeights(300_000, 'periodic');
    expect((await quirkyPut(periodic.uploadUrl, lastPt)).status).toBe(200);
    const saved = await webhook({ event: 'checkpoint_saved', modelId, data: { modelPath: periodic.gcsPath, runId, uploadPath: periodic.uploadPath } });
    expect(saved.json()).toEqual({ ok: true, modelPath: periodic.gcsPath });
    // A checkpoint of another run is refused.
    expect((await webhook({ event: 'checkpoint_saved', modelId, data: { modelPath: periodic.gcsPath, runId: 'run_other' } })).status).toBe(400);

    expect((await webhook(epoch(2))).status).toBe(200);
    // The final validation of best.pt: same epoch number again (platform-protocol §4.5), without val/* losses.
    const finalVal = {
      event: 'epoch_end',
      modelId,
      data: { epoch: 2, metrics: { 'train/box_loss': 0.8, 'metrics/mAP50(B)': 0.7, 'metrics/mAP50-95(B)': 0.35, lr: 0.01 }, system: {}, fitness: 0.35 },
    };
    expect((await webhook(finalVal)).status).toBe(200);

    const final = (
      await send(`${s.origin}/api/webhooks/models/upload`, { method: 'POST', headers: bearer(), body: JSON.stringify({ filename: 'best.pt', modelId, runId }) })
    ).json();
    const bestPt = fakeWeights(250_000, 'final');
    expect((await quirkyPut(final.uploadUrl, bestPt)).status).toBe(200);
    // A retried PUT of the same URL is idempotent.
    expect((await quirkyPut(final.uploadUrl, bestPt)).status).toBe(200);
    expect((await webhook({ event: 'checkpoint_saved', modelId, data: { modelPath: final.gcsPath, runId, uploadPath: final.uploadPath } })).status).toBe(200);
    const complete = await webhook({
      event: 'training_complete',
      modelId,
      data: {
        results: {
          metrics: { 'metrics/mAP50(B)': 0.7, 'metrics/mAP50-95(B)': 0.35, fitness: 0.35 },
          bestEpoch: 2,
          bestFitness: 0.35,
          modelPath: final.gcsPath,
          modelSize: bestPt.length,
        },
        classNames: ['a', 'b', 'c'],
        plots: [{ type: 'pr_curve', x: [0, 1], y: [[1, 0]] }],
        runId,
      },
    });
    expect(complete.json()).toEqual({ ok: true });
    // A late console chunk after completion still lands.
    expect((await webhook({ event: 'console_output', modelId, data: { chunkId: 6, content: 'late', lineCount: 1 } })).status).toBe(200);

    const model = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${modelId}`, headers: { cookie: alice.cookie } })).json().data;
    expect(model).toMatchObject({ status: 'trained', names: ['a', 'b', 'c'], task: 'detect', project: { name: 'Pets Two' } });
    expect(model.lineage.parent.name).toBe('yolo11n.pt');
    expect(model.dataset.name).toBe('shapes3');
    expect(model.config).toMatchObject({ epochs: 3, imageSize: 640, batchSize: -1, cache: null, device: null });
    expect(modelStatus(model.dates, s.t.clock.now())).toBe('Trained');
    expect(model.files.map((f: { kind: string; bytes: number }) => [f.kind, f.bytes]).sort()).toEqual([
      ['best', bestPt.length],
      ['last', lastPt.length],
    ]);
    expect(model.metrics.best).toEqual({ 'metrics/mAP50(B)': 0.7, 'metrics/mAP50-95(B)': 0.35 });
    const metrics = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${modelId}/metrics`, headers: { cookie: alice.cookie } })).json().data;
    expect(metrics.map((r: { epoch: number }) => r.epoch)).toEqual([0, 1, 2]);
    // Epoch 2 kept its own metrics (with val losses); the final validation did not overwrite it.
    expect(metrics[2]['val/box_loss']).toBeCloseTo(1.3);
    const consoleRes = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${modelId}/console?after=2`, headers: { cookie: alice.cookie } })).json();
    expect(consoleRes.data.map((c: { chunkId: number }) => c.chunkId)).toEqual([3, 4, 6]);
    expect(consoleRes.data[0].content).toBe('line 3\u001b[K');

    // ul:// model, generation 2 (SDK): JSON with a signed, versioned .pt URL.
    const files = await send(`${s.origin}/api/models/alice/pets-two/exp/files`, { headers: { Authorization: `Bearer ${alice.key}` } });
    expect(files.status).toBe(200);
    const [file] = files.json().files;
    expect(file).toMatchObject({ size: bestPt.length, name: expect.stringMatching(/^exp-[A-Za-z0-9]{8}\.pt$/) });
    expect(sha256((await send(file.downloadUrl)).body)).toBe(sha256(bestPt));
    // Dataset, generation 2.
    const exp = await send(`${s.origin}/api/datasets/alice/shapes3/export`, { headers: { Authorization: `Bearer ${alice.key}` } });
    expect(exp.json()).toMatchObject({ cached: false, downloadUrl: expect.stringMatching(/\/shapes3\.v1\.ndjson\?exp=/) });
    // NDJSON answers HEAD and Range (curl -C resume).
    const nd = exp.json().downloadUrl;
    const full = await send(nd);
    const part = await send(nd, { headers: { Range: 'bytes=10-' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(full.body.subarray(10))).toBe(true);
    expect((await send(nd, { method: 'HEAD' })).headers['content-length']).toBe(String(full.body.length));
  });

  it('accepts well-formed PUT bodies too: plain Content-Length and real chunked encoding', async () => {
    const { modelId } = (await webhook({ event: 'training_started', project: 'pets', name: 'sink', data: { trainArgs: {} } })).json();
    // Without runId (pre-#25255 clients) the upload is promoted as soon as it lands.
    const url1 = (
      await send(`${s.origin}/api/webhooks/models/upload`, { method: 'POST', headers: bearer(), body: JSON.stringify({ filename: 'best.pt', modelId }) })
    ).json().uploadUrl;
    const a = fakeWeights(100_000, 'plain');
    expect((await send(url1, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: a })).status).toBe(200);
    let model = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${modelId}`, headers: { cookie: alice.cookie } })).json().data;
    expect(model.files[0]).toMatchObject({ kind: 'best', bytes: a.length });
    const url2 = (
      await send(`${s.origin}/api/webhooks/models/upload`, { method: 'POST', headers: bearer(), body: JSON.stringify({ filename: 'best.pt', modelId }) })
    ).json().uploadUrl;
    const b = fakeWeights(70_000, 'chunked');
    const u = new URL(url2);
    const chunks = [b.subarray(0, 30_000), b.subarray(30_000)].map((c) => Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from('\r\n')]));
    const res = await rawRequest(s.port, `PUT ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nTransfer-Encoding: chunked\r\n\r\n`, [
      ...chunks,
      Buffer.from('0\r\n\r\n'),
    ]);
    expect(res.status).toBe(200);
    model = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${modelId}`, headers: { cookie: alice.cookie } })).json().data;
    expect(model.files[0]).toMatchObject({ kind: 'best', bytes: b.length });
    expect(sha256((await send(`${s.origin}${model.files[0].url}`)).body)).toBe(sha256(b));
    // Other traffic on the same port is untouched by the upload sniffer, keep-alive included.
    expect((await send(`${s.origin}/alive`)).status).toBeLessThan(500);
  });

  it('a run named after a model made in the web app (train dialog) reports into that model; a second run gets a new one', async () => {
    const project = (
      await s.t.app.inject({ method: 'POST', url: '/v1/projects', headers: { cookie: alice.cookie }, payload: { meta: { name: 'Dialog' } } })
    ).json().data;
    const made = (
      await s.t.app.inject({
        method: 'POST',
        url: '/v1/models',
        headers: { cookie: alice.cookie },
        payload: { project: { id: project.id }, meta: { name: 'Dialog Model' }, config: { epochs: 7 } },
      })
    ).json().data;
    const first = (
      await webhook({ event: 'training_started', project: `alice/${project.slug}`, name: made.slug, data: { trainArgs: { epochs: 3, imgsz: 320 } } })
    ).json();
    expect(first.modelId).toBe(made.id);
    expect(first.modelSlug).toBe(made.slug);
    const m = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${made.id}`, headers: { cookie: alice.cookie } })).json().data;
    expect(m.config).toMatchObject({ epochs: 3, imageSize: 320 });
    const second = (await webhook({ event: 'training_started', project: `alice/${project.slug}`, name: made.slug, data: { trainArgs: {} } })).json();
    expect(second.modelId).not.toBe(made.id);
    expect(second.modelSlug).toBe(`${made.slug}-2`);
  });

  it('a model made with the train dialog (dataset by id only) shows its dataset by name, not its id', async () => {
    const shapes = { id: shapes3Id };
    const project = (
      await s.t.app.inject({ method: 'POST', url: '/v1/projects', headers: { cookie: alice.cookie }, payload: { meta: { name: 'Named data' } } })
    ).json().data;
    const created = await s.t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: alice.cookie },
      payload: { project: { id: project.id }, meta: { name: 'named' }, dataset: { id: shapes.id } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const model = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${created.json().data.id}`, headers: { cookie: alice.cookie } })).json().data;
    expect(model.dataset).toMatchObject({ id: shapes.id, name: 'shapes3' });
  });

  it('login checks for both client generations', async () => {
    for (const path of ['/api/settings', '/api/account/summary', '/api/api-keys']) {
      const ok = await send(`${s.origin}${path}`, { headers: { Authorization: `Bearer ${alice.key}` } });
      expect(ok.status, path).toBe(200);
      expect(ok.headers['content-type']).toMatch(/application\/json/);
      expect(JSON.stringify(ok.json())).not.toContain(alice.key.slice(3));
      const bad = await send(`${s.origin}${path}`, { headers: { Authorization: `Bearer ul_${'1'.repeat(40)}` } });
      expect(bad.status, path).toBe(401);
      expect(typeof bad.json().error).toBe('string');
    }
    const summary = (await send(`${s.origin}/api/account/summary`, { headers: { Authorization: `Bearer ${alice.key}` } })).json();
    expect(summary).toMatchObject({ username: 'alice', accountType: 'personal', plan: 'free', teams: [] });
    expect(summary.counts.datasets).toBe(1);
  });

  it('a Stop before the first epoch is answered on the next event and the run ends as cancelled', async () => {
    const { modelId, runId } = (await webhook({ event: 'training_started', project: 'pets', name: 'stopme', data: { trainArgs: {} } })).json();
    const stop = await send(`${s.origin}/v1/models/${modelId}/stop`, { method: 'POST', headers: bearer(), body: '{}' });
    expect(stop.status).toBe(200);
    for (let i = 0; i < 2; i++)
      expect((await webhook({ event: 'epoch_end', modelId, data: { epoch: i, metrics: { 'val/box_loss': 1 } } })).json().cancelled).toBe(true);
    await webhook({ event: 'training_complete', modelId, data: { results: { metrics: {} }, runId } });
    const model = (await s.t.app.inject({ method: 'GET', url: `/v1/models/${modelId}`, headers: { cookie: alice.cookie } })).json().data;
    expect(model.training).toMatchObject({ outcome: 'cancelled', cancelRequested: true });
    expect(model.dates.train.end).not.toBeNull();
    // A finished run cannot be stopped again.
    expect((await send(`${s.origin}/v1/models/${modelId}/stop`, { method: 'POST', headers: bearer(), body: '{}' })).status).toBe(409);
  });

  it('publishes small realtime events for each change of a run', async () => {
    const seen: DomainEvent[] = [];
    const off = s.t.app.ctx.bus.subscribe((e) => seen.push(e));
    try {
      const { modelId } = (await webhook({ event: 'training_started', project: 'pets', name: 'live', data: { trainArgs: {} } })).json();
      await webhook({ event: 'console_output', modelId, data: { chunkId: 1, content: 'x'.repeat(50_000), lineCount: 1 } });
      await webhook({ event: 'epoch_end', modelId, data: { epoch: 0, metrics: { 'val/box_loss': 1, 'metrics/mAP50-95(B)': 0.1 } } });
      await webhook({ event: 'training_complete', modelId, data: { results: { metrics: {} } } });
      await new Promise((r) => setTimeout(r, 300));
      const mine = seen.filter((e) => e.topic === `model:${modelId}`);
      expect(mine.map((e) => e.event)).toEqual(expect.arrayContaining(['model.created', 'model.console', 'model.metrics', 'model.updated']));
      for (const e of mine) expect(JSON.stringify(e).length).toBeLessThan(7000);
      expect(mine.find((e) => e.event === 'model.console')!.data).toMatchObject({ id: modelId, chunkId: 1 });
    } finally {
      off();
    }
  });

  it('a processed dataset is exported from the per-image store, with every image URL fetchable', async () => {
    const ds = await shapes3Dataset(s.t, alice.user.id, 'shapes3-processed');
    const res = await s.t.app.inject({ method: 'POST', url: `/v1/datasets/${ds.id}/process`, headers: { cookie: alice.cookie } });
    expect(res.statusCode).toBeLessThan(300);
    await s.t.app.ctx.jobs.drain();
    const exp = (await send(`${s.origin}/api/datasets/alice/shapes3-processed/export`, { headers: { Authorization: `Bearer ${alice.key}` } })).json();
    const lines = parseNdjson((await send(exp.downloadUrl)).body);
    expect(lines).toHaveLength(161);
    expect(lines[0]!.class_names).toEqual({ '0': expect.any(String), '1': expect.any(String), '2': expect.any(String) });
    const imgs = lines.slice(1);
    expect(String(imgs[0]!.url)).toMatch(/\/v1\/datasets\/[A-Za-z0-9]+\/images\/[A-Za-z0-9]+\/raw\?sig=/);
    const got = await Promise.all(imgs.map((l) => send(String(l.url))));
    expect(got.every((r) => r.status === 200 && r.body.length > 0)).toBe(true);
    expect(imgs.every((l) => /^[A-Za-z0-9]+_/.test(String(l.file)))).toBe(true);
  });
});
