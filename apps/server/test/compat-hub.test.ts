import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { modelStatus } from '@sightline/contracts';
import { models as modelsTable, modelFiles } from '../src/platform/db/schema.js';
import { newId } from '../src/platform/ids.js';
import { markStaleRuns } from '../src/modules/training/training.service.js';
import { multipart } from './support/harness.js';
import { ensureNormalizedZip } from '../src/modules/datasets/datasets.export.js';
import { datasetsRepository } from '../src/modules/datasets/datasets.repository.js';
import {
  fakeWeights,
  loadTrace,
  requestsMultipart,
  send,
  sha256,
  shapes3Dataset,
  startLiveServer,
  userWithKey,
  type LiveServer,
  type WireResponse,
} from './support/wire.js';

/**
 * Conformance of the legacy Ultralytics HUB protocol (ultralytics 8.3.166 + hub-sdk): the recorded
 * trace is replayed request by request over real HTTP, with our ids, key and signed URLs substituted,
 * and every answer is checked for what the real client reads from it.
 */

interface TraceRecord {
  seq: number;
  scenario: string;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body:
    | null
    | { kind: 'json'; json: Record<string, unknown>; raw: string }
    | { kind: 'multipart'; parts: Array<{ name: string; filename: string | null; value?: string; sha256?: string; size: number }> };
  response: { status: number; json?: { success?: boolean; data?: Record<string, unknown> }; injected_fault?: boolean };
}

const TRACE_IDS = {
  A: 'RvLVNQ2zRdDt8eMOSbp8',
  B: 'CmHoY8KcJJ5YObs8dzdW',
  C: 'oBwquU54Myr95Q3gT5aN',
  D: 'uKgPnFYYKcLJeHrWEHkB',
  L1: '7q0WyHUglzcIsZzbCSxx',
  L2: 'PeQPH27qaVomkbJEePuZ',
  X: 'nIfl6UH25s99hZc8Kqqa',
};
const HUB_FIELDS = [
  'id',
  'status',
  'data',
  'cfg',
  'weights',
  'resume',
  'is_pretrained',
  'has_last_weights',
  'has_best_weights',
  'train_args',
  'batch_size',
  'epochs',
  'imgsz',
  'patience',
  'device',
  'cache',
];

let s: LiveServer;
let alice: Awaited<ReturnType<typeof userWithKey>>;
let dataset: Awaited<ReturnType<typeof shapes3Dataset>>;
let datasetZip: Buffer;
const ours: Record<string, string> = {};
const docs = new Map<string, Record<string, unknown>>();
const agentIds = new Map<string, string>();
const uploaded = new Map<string, Buffer>();
const createdByClient = new Set<string>();

beforeAll(async () => {
  s = await startLiveServer();
  alice = await userWithKey(s.t, `alice${newId().slice(0, 6).toLowerCase()}`);
  dataset = await shapes3Dataset(s.t, alice.user.id);
  // What HUB clients download: the normalized zip the dataset pipeline builds from the processed dataset.
  const row = (await datasetsRepository.byId(s.t.app.ctx.db, dataset.id))!;
  const { stream } = await s.t.app.ctx.blobs.get((await ensureNormalizedZip(s.t.app.ctx, row)).key);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  datasetZip = Buffer.concat(chunks);
  const create = async (name: string, epochs: number) => {
    const res = await s.t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: alice.cookie },
      payload: {
        meta: { name },
        dataset: { id: dataset.id },
        lineage: { architecture: { name: 'yolov8n' } },
        config: { epochs, imageSize: 64, batchSize: 8, patience: 100, device: 'cpu', cache: false, advanced: { workers: 0 } },
      },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  };
  ours[TRACE_IDS.A] = await create('shapes3-yolov8n-a', 2);
  ours[TRACE_IDS.B] = await create('shapes3-yolov8n-b', 5);
  ours[TRACE_IDS.C] = await create('shapes3-yolov8n-c', 2);
  ours[TRACE_IDS.D] = await create('shapes3-yolov8n-d', 2);
  ours[TRACE_IDS.X] = newId();
});
afterAll(async () => {
  await s?.close();
});

const subIds = (text: string) => Object.entries(ours).reduce((acc, [theirs, mine]) => acc.split(theirs).join(mine), text);
const modelIdOf = (path: string) => /\/models\/([A-Za-z0-9]{20})/.exec(path)?.[1] ?? null;

/** The trace's file URLs are the stand-in's; ours come from the model document the client just read. */
function fileUrlFor(path: string): string {
  const m = /^\/files\/([A-Za-z0-9]{20})-(best|last)/.exec(path);
  if (!m) return String([...docs.values()].find((d) => d.data)?.data ?? '');
  const doc = docs.get(ours[m[1]!]!)!;
  return String(m[2] === 'best' ? doc.weights : doc.resume);
}

async function operatorStep(scenario: string) {
  const db = s.t.database.db;
  if (scenario.startsWith('05')) {
    // As in the recording, the operator turned B back into a resumable model (trace README, scenario 05).
    const b = ours[TRACE_IDS.B]!;
    await db.update(modelsTable).set({ hubStatus: 'training', trainEnd: null }).where(eq(modelsTable.id, b));
    await db.delete(modelFiles).where(eq(modelFiles.modelId, b)).execute();
    const last = uploaded.get(`${b}:last`)!;
    const key = `users/${alice.user.id}/models/${b}/${b}-last-e4.pt`;
    await s.t.app.ctx.blobs.put(key, last);
    await db.insert(modelFiles).values({ modelId: b, kind: 'last', name: `${b}-last-e4.pt`, blobKey: key, bytes: last.length, epoch: 4 });
  }
  if (scenario.startsWith('12')) {
    // Anonymous loads work for public models only: share A first, and check a private one stays hidden.
    const hidden = await send(`${s.origin}/v1/models/${ours[TRACE_IDS.C]}`);
    expect(hidden.status).toBe(404);
    expect(hidden.headers['content-type']).toMatch(/application\/json/);
    const res = await s.t.app.inject({
      method: 'POST',
      url: `/v1/models/${ours[TRACE_IDS.A]}/share`,
      headers: { cookie: alice.cookie },
      payload: { privacy: 'public' },
    });
    expect(res.statusCode).toBe(200);
  }
}

function bodyFor(rec: TraceRecord): { body?: Buffer; contentType?: string } {
  if (!rec.body) return {};
  if (rec.body.kind === 'json') {
    let raw = subIds(rec.body.raw);
    const given = rec.body.json.agentId;
    if (typeof given === 'string') raw = raw.replace(given, agentIds.get(ours[modelIdOf(rec.path)!] ?? modelIdOf(rec.path)!) ?? given);
    return { body: Buffer.from(raw) };
  }
  const fields = rec.body.parts.filter((p) => p.filename === null).map((p) => [p.name, p.value ?? ''] as [string, string]);
  const file = rec.body.parts.find((p) => p.filename !== null)!;
  // Same trace sha → same bytes, so retried uploads resend identical content as the client does.
  const content = fakeWeights(file.size, file.sha256!);
  const modelId = ours[modelIdOf(rec.path)!]!;
  uploaded.set(`${modelId}:${file.name === 'best.pt' ? 'best' : 'last'}`, content);
  const mp = requestsMultipart(fields, { name: file.name, content });
  return { body: mp.body, contentType: mp.contentType };
}

function checkModelDoc(rec: TraceRecord, res: WireResponse, anonymous: boolean) {
  const doc = res.json<{ success: boolean; data: Record<string, unknown> }>();
  expect(doc.success).toBe(true);
  const theirs = rec.response.json!.data!;
  for (const f of HUB_FIELDS) expect(doc.data, `field ${f} (seq ${rec.seq})`).toHaveProperty(f);
  for (const f of ['status', 'has_last_weights', 'has_best_weights']) expect(doc.data[f], `${f} (seq ${rec.seq})`).toEqual(theirs[f]);
  // A client-created model (local run) with a .pt parent is honestly "pretrained"; the client ignores it (§5.4).
  if (!createdByClient.has(doc.data.id as string)) expect(doc.data.is_pretrained).toEqual(theirs.is_pretrained);
  if (theirs.train_args === null) expect(doc.data.train_args).toBeNull();
  else if (anonymous) {
    // A public model over a private dataset: strangers get no dataset link. A trained model needs none,
    // the client only downloads its weights (hub-protocol §5.3 step 1).
    expect(doc.data).toMatchObject({ data: null, train_args: null, status: 'trained' });
  } else {
    const args = doc.data.train_args as Record<string, unknown>;
    expect(args.data).toBe(doc.data.data);
    const { data: _d, epochs, imgsz, batch, patience, device, cache, workers } = theirs.train_args as Record<string, unknown>;
    expect(args).toMatchObject({ epochs, imgsz, batch, patience, device, cache, workers });
  }
  if (theirs.status === 'trained') expect(String(doc.data.weights)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/.+-best\.pt\?/);
  if (theirs.has_last_weights) expect(String(doc.data.resume)).toMatch(/-last-e\d+\.pt\?/);
  if (theirs.data && !anonymous) expect(String(doc.data.data)).toMatch(/\.zip\?exp=\d+&sig=/);
  if (!createdByClient.has(doc.data.id as string)) expect(doc.data.cfg).toBe(theirs.cfg ?? null);
  docs.set(doc.data.id as string, doc.data);
}

describe('legacy HUB protocol: recorded trace of ultralytics 8.3.166 + hub-sdk 0.0.20', () => {
  it('replays all 79 requests over real HTTP and answers what the client reads', async () => {
    const trace = loadTrace<TraceRecord>('legacy-hub-ultralytics-8.3.166.jsonl');
    expect(trace).toHaveLength(79);
    const invalidKey = `ul${'0'.repeat(40)}`;
    let scenario = '';
    for (const rec of trace) {
      if (rec.scenario !== scenario) {
        scenario = rec.scenario;
        await operatorStep(scenario);
      }
      const isFile = rec.path.startsWith('/files/');
      const url = isFile ? fileUrlFor(rec.path) : `${s.origin}${subIds(rec.path)}`;
      const { body, contentType } = bodyFor(rec);
      const headers = rec.headers.map(([k, v]) => [k, v.replace('<INVALID_API_KEY>', invalidKey).replace('<API_KEY>', alice.legacyKey)] as [string, string]);
      const withType = contentType ? headers.filter(([k]) => k.toLowerCase() !== 'content-type').concat([['Content-Type', contentType]]) : headers;
      const res = await send(url, { method: rec.method, headers: withType, body });
      // Injected faults were the stand-in's; the client's retry after them must simply succeed here.
      const expected = rec.response.injected_fault ? 200 : rec.response.status;
      // Creation answers 201 (our REST convention); hub-sdk only calls raise_for_status, so any 2xx is what it needs.
      if (rec.method === 'POST' && rec.path === '/v1/models' && res.status === 201) res.status = 200;
      expect(res.status, `seq ${rec.seq} ${rec.method} ${rec.path}: ${res.body.toString('utf8', 0, 300)}`).toBe(expected);
      if (isFile) {
        expect(Number(res.headers['content-length'])).toBeGreaterThan(0);
        if (rec.method === 'GET') {
          const m = /^\/files\/([A-Za-z0-9]{20})-(best|last)/.exec(rec.path);
          const want = m ? uploaded.get(`${ours[m[1]!]}:${m[2]}`)! : datasetZip;
          expect(sha256(res.body), `seq ${rec.seq}`).toBe(sha256(want));
        }
        continue;
      }
      // Every API answer is JSON: several client call sites call .json() unguarded (hub-protocol §4).
      expect(res.headers['content-type'], `seq ${rec.seq}`).toMatch(/application\/json/);
      const json = res.json<{ success?: boolean; data?: { id?: string; agentId?: string } }>();
      if (rec.path === '/v1/auth') expect(json.success).toBe(res.status === 200);
      else if (rec.method === 'GET' && res.status === 200) checkModelDoc(rec, res, !rec.headers.some(([k]) => k.toLowerCase() === 'x-api-key'));
      else if (rec.method === 'POST' && rec.path === '/v1/models') {
        const created = String(rec.response.json!.data!.id);
        expect(json.data?.id).toMatch(/^[A-Za-z0-9]{20}$/);
        ours[created] = json.data!.id!;
        createdByClient.add(json.data!.id!);
      } else if (rec.path.startsWith('/v1/agent/heartbeat/')) {
        expect(json.data?.agentId).toBeTruthy();
        const id = ours[modelIdOf(rec.path)!]!;
        if (agentIds.has(id)) expect(json.data!.agentId).toBe(agentIds.get(id));
        agentIds.set(id, json.data!.agentId!);
      } else if (res.status === 200) expect(json.success).toBe(true);
    }
  });

  it('left each model in the state the protocol implies (public API)', async () => {
    const get = async (theirs: string) => {
      const res = await s.t.app.inject({ method: 'GET', url: `/v1/models/${ours[theirs]}`, headers: { cookie: alice.cookie } });
      expect(res.statusCode).toBe(200);
      return res.json().data;
    };
    const metrics = async (theirs: string) =>
      (await s.t.app.inject({ method: 'GET', url: `/v1/models/${ours[theirs]}/metrics`, headers: { cookie: alice.cookie } })).json().data;

    const a = await get(TRACE_IDS.A);
    expect(a.status).toBe('trained');
    expect(modelStatus(a.dates, s.t.clock.now())).toBe('Trained');
    expect(a.dates.train.start).not.toBeNull();
    expect(a.dates.train.initialized).not.toBeNull();
    // Heartbeats after the final upload (seq 10) keep the model Trained and its end date unchanged.
    expect(new Date(a.dates.train.end).getTime()).toBeGreaterThanOrEqual(new Date(a.dates.train.start).getTime());
    expect(a.files.map((f: { kind: string }) => f.kind)).toEqual(['best']);
    expect(a.files[0].bytes).toBe(6_177_720);
    expect(a.training).toMatchObject({ protocol: 'hub', outcome: 'completed', cancelRequested: false, stale: null });
    expect((await metrics(TRACE_IDS.A)).map((m: { epoch: number }) => m.epoch)).toEqual([0, 1]);
    expect(a.metrics.epochs).toBe(2);

    // B: five epoch checkpoints (newest kept), a final, then a resumed run to a second final.
    const b = await get(TRACE_IDS.B);
    expect(b.status).toBe('trained');
    expect(b.files.map((f: { kind: string }) => f.kind).sort()).toEqual(['best', 'last']);
    const bm = await metrics(TRACE_IDS.B);
    expect(bm.map((m: { epoch: number }) => m.epoch)).toEqual([0, 1, 2, 3, 4]);
    // Seq 33's epoch-end form of epoch 4 (with val losses) replaced seq 24's final-validation-only form.
    expect(bm[4]).toHaveProperty(['val/box_loss']);

    // L2: epoch 0 sent twice, the second time as best.pt's final validation: the epoch keeps its val losses.
    const l2 = await get(TRACE_IDS.L2);
    const l2m = await metrics(TRACE_IDS.L2);
    expect(l2m).toHaveLength(1);
    expect(l2m[0]).toHaveProperty(['val/box_loss']);
    expect(l2.metrics.best).toHaveProperty(['metrics/mAP50-95(B)']);

    // L1 came from a local run: hub-sdk's create body with Python-style strings was accepted.
    const l1 = await get(TRACE_IDS.L1);
    expect(l1.config).toMatchObject({ epochs: 1, imageSize: 64, batchSize: 16, device: 'cpu', cache: false });
    expect(l1.dataset.name).toBe('data.yaml');
    expect(l1.lineage.architecture.name).toBe('yolov8n');
    expect(l1.meta.name).toBe('yolov8n.yaml');
    expect(l1.status).toBe('trained');
    // Its parent is named after our weights file, which carries A's id (traces README §4).
    const l2doc = await get(TRACE_IDS.L2);
    expect(l2doc.lineage.parent.name).toContain(ours[TRACE_IDS.A]);

    // C: the final upload was sent three times with the same bytes; one file, one size.
    const c = await get(TRACE_IDS.C);
    expect(c.files).toHaveLength(1);
    expect(c.totals.bytes).toBe(6_177_720);
  });
});

describe('legacy HUB protocol: sequences of hub-protocol.md', () => {
  const api = (path: string) => `${s.origin}${path}`;
  const key = () => ({ 'x-api-key': alice.legacyKey, 'Content-Type': 'application/json' });

  async function newModel(extra: object = {}) {
    const res = await s.t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: alice.cookie },
      payload: { dataset: { id: dataset.id }, lineage: { architecture: { name: 'yolo11n' } }, config: { epochs: 3 }, ...extra },
    });
    expect(res.statusCode).toBe(201);
    return res.json().data.id as string;
  }
  const doc = async (id: string) => (await send(api(`/v1/models/${id}`), { headers: { 'x-api-key': alice.legacyKey } })).json().data;
  const metricsBody = (epochs: Record<number, object>) =>
    JSON.stringify({ metrics: Object.fromEntries(Object.entries(epochs).map(([e, m]) => [e, JSON.stringify(m)])), type: 'metrics' });
  const epochMetrics = (e: number) => ({
    'train/box_loss': 1 / (e + 1),
    'metrics/mAP50(B)': 0.1 * e,
    'metrics/mAP50-95(B)': 0.05 * e,
    'val/box_loss': 2 / (e + 1),
  });
  const upload = (id: string, fields: Array<[string, string]>, name: string, content: Buffer) => {
    const mp = requestsMultipart(fields, { name, content });
    return send(api(`/v1/models/${id}/upload`), { method: 'POST', headers: { 'x-api-key': alice.legacyKey, 'Content-Type': mp.contentType }, body: mp.body });
  };

  it('new model: train_args for 8.1.30+, legacy top-level fields for older clients, cfg from the architecture', async () => {
    const id = await newModel({ config: { epochs: 3, imageSize: 320, batchSize: 4, patience: 10, device: 'cuda:0', cache: 'ram' } });
    const d = await doc(id);
    expect(d).toMatchObject({
      status: 'new',
      cfg: 'yolo11n.yaml',
      weights: null,
      resume: null,
      is_pretrained: false,
      has_last_weights: false,
      has_best_weights: false,
    });
    expect(d.train_args).toEqual({ data: d.data, epochs: 3, imgsz: 320, batch: 4, patience: 10, device: 'cuda:0', cache: 'ram' });
    expect(d).toMatchObject({ batch_size: 4, epochs: 3, imgsz: 320, patience: 10, device: 'cuda:0', cache: 'ram' });
    // The dataset URL is self-authorising, unique, .zip, and answers HEAD and ranged GETs (resume with curl -C).
    expect(d.data).toMatch(new RegExp(`/${dataset.id}-shapes3\\.zip\\?`));
    const head = await send(d.data, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(datasetZip.length);
    const part = await send(d.data, { headers: { Range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.body.equals(datasetZip.subarray(100, 200))).toBe(true);
    const forged = await send(d.data.replace(/sig=[^&]+/, 'sig=AAAA'));
    expect(forged.status).toBe(403);
    // A pretrained start names the parent weights instead of a yaml.
    const pre = await doc(await newModel({ lineage: { architecture: { name: 'yolo11n' }, parent: { name: 'yolo11n.pt' } } }));
    expect(pre).toMatchObject({ is_pretrained: true, cfg: null, weights: 'yolo11n.pt' });
    // A parent that is one of my trained models: its best.pt, by signed URL.
    const mp = multipart({ model_name: 'parent' }, { filename: 'best.pt', content: fakeWeights(4096, 'parent') });
    const up = await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: alice.cookie }, payload: mp.payload });
    const parentId = up.json().data.id as string;
    const child = await doc(await newModel({ lineage: { architecture: { name: 'yolo11n' }, parent: { id: parentId } } }));
    expect(child).toMatchObject({ is_pretrained: true, cfg: null });
    expect(String(child.weights)).toMatch(new RegExp(`/users/${alice.user.id}/models/${parentId}/best\\.pt\\?`));
    expect((await send(String(child.weights))).status).toBe(200);
  });

  it("a processed dataset is served as the pipeline's normalized zip (<slug>/data.yaml), HEAD and Range included", async () => {
    const ds = await shapes3Dataset(s.t, alice.user.id, 'shapes3-normalized');
    const id = await newModel({ dataset: { id: ds.id } });
    const d = await doc(id);
    const head = await send(d.data, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const zip = await send(d.data);
    expect(zip.body.length).toBe(Number(head.headers['content-length']));
    expect(zip.body.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    expect(zip.body.includes(Buffer.from('shapes3-normalized/data.yaml'))).toBe(true);
    expect(sha256(zip.body)).not.toBe(sha256(ds.content));
    const tail = await send(d.data, { headers: { Range: `bytes=-100` } });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(zip.body.subarray(zip.body.length - 100))).toBe(true);
  });

  it('heartbeats, metrics, epoch checkpoint, resume from last, final upload, lifecycle dates', async () => {
    const id = await newModel();
    const hb = await send(api(`/v1/agent/heartbeat/models/${id}`), {
      method: 'POST',
      headers: key(),
      body: '{"agent": "python-3.11.2-local", "agentId": null}',
    });
    expect(hb.status).toBe(200);
    const agentId = hb.json().data.agentId;
    let d = await doc(id);
    expect(modelStatus(d.dates, s.t.clock.now())).toBe('Training');
    expect(d.dates.train.initialized).not.toBeNull();

    expect(
      (await send(api(`/v1/models/${id}`), { method: 'POST', headers: key(), body: metricsBody({ 0: epochMetrics(0), 1: epochMetrics(1) }) })).status,
    ).toBe(200);
    const ckpt1 = fakeWeights(200_000, `${id}-e1`);
    expect(
      (
        await upload(
          id,
          [
            ['epoch', '1'],
            ['type', 'epoch'],
            ['isBest', 'True'],
          ],
          'last.pt',
          ckpt1,
        )
      ).status,
    ).toBe(200);
    d = await doc(id);
    expect(d).toMatchObject({ status: 'training', has_last_weights: true, has_best_weights: false });
    expect(d.resume).toMatch(new RegExp(`/${id}-last-e1\\.pt\\?`));
    // A late checkpoint of an older epoch (parallel client threads) does not replace the newer one.
    expect(
      (
        await upload(
          id,
          [
            ['epoch', '0'],
            ['type', 'epoch'],
            ['isBest', 'False'],
          ],
          'last.pt',
          fakeWeights(1000, 'old'),
        )
      ).status,
    ).toBe(200);
    d = await doc(id);
    expect(d.resume).toMatch(/-last-e1\.pt\?/);
    expect(sha256((await send(d.resume)).body)).toBe(sha256(ckpt1));

    // A new process resumes: agentId null again, same agent id answered, resume weights downloadable.
    s.t.clock.advance(20 * 60_000);
    expect(modelStatus(d.dates, s.t.clock.now())).toBe('Timeout');
    const hb2 = await send(api(`/v1/agent/heartbeat/models/${id}`), {
      method: 'POST',
      headers: key(),
      body: '{"agent": "python-3.11.2-local", "agentId": null}',
    });
    expect(hb2.json().data.agentId).toBe(agentId);
    expect(modelStatus((await doc(id)).dates, s.t.clock.now())).toBe('Training');
    expect((await send(api(`/v1/models/${id}`), { method: 'POST', headers: key(), body: metricsBody({ 2: epochMetrics(2) }) })).status).toBe(200);
    const best = fakeWeights(120_000, `${id}-best`);
    expect(
      (
        await upload(
          id,
          [
            ['epoch', '2'],
            ['type', 'final'],
            ['map', '0.1'],
          ],
          'best.pt',
          best,
        )
      ).status,
    ).toBe(200);
    d = await doc(id);
    expect(d).toMatchObject({ status: 'trained', has_best_weights: true, has_last_weights: false, resume: null });
    expect(sha256((await send(d.weights)).body)).toBe(sha256(best));
    expect(modelStatus(d.dates, s.t.clock.now())).toBe('Trained');
    expect(d.metrics.epochs).toBe(3);
    expect(d.metrics.best['metrics/mAP50-95(B)']).toBeCloseTo(0.1);
    const m = (await send(api(`/v1/models/${id}/metrics`), { headers: { 'x-api-key': alice.legacyKey } })).json().data;
    expect(m.map((r: { epoch: number }) => r.epoch)).toEqual([0, 1, 2]);
  });

  it('a Stop is recorded for a HUB run and shows in its outcome (the HUB client has no cancel channel)', async () => {
    const id = await newModel();
    expect((await send(api(`/v1/models/${id}/stop`), { method: 'POST', headers: key(), body: '{}' })).status).toBe(409);
    await send(api(`/v1/agent/heartbeat/models/${id}`), { method: 'POST', headers: key(), body: '{"agent": "x", "agentId": null}' });
    expect((await send(api(`/v1/models/${id}/stop`), { method: 'POST', headers: key(), body: '{}' })).status).toBe(200);
    expect((await doc(id)).training).toMatchObject({ cancelRequested: true, outcome: 'running' });
    await upload(
      id,
      [
        ['epoch', '0'],
        ['type', 'final'],
        ['map', '0.0'],
      ],
      'best.pt',
      fakeWeights(5000, 'stopped'),
    );
    expect((await doc(id)).training).toMatchObject({ cancelRequested: true, outcome: 'cancelled' });
  });

  it('a run that goes quiet is marked stale, keeps its data, and a late heartbeat revives it', async () => {
    const id = await newModel();
    await send(api(`/v1/agent/heartbeat/models/${id}`), { method: 'POST', headers: key(), body: '{"agent": "x", "agentId": null}' });
    await send(api(`/v1/models/${id}`), { method: 'POST', headers: key(), body: metricsBody({ 0: epochMetrics(0) }) });
    s.t.clock.advance(16 * 60_000);
    expect(await markStaleRuns(s.t.app.ctx)).toContain(id);
    let d = await doc(id);
    expect(d.training.stale).not.toBeNull();
    expect(modelStatus(d.dates, s.t.clock.now())).toBe('Timeout');
    expect(d.metrics.epochs).toBe(1);
    await send(api(`/v1/agent/heartbeat/models/${id}`), { method: 'POST', headers: key(), body: '{"agent": "x", "agentId": null}' });
    d = await doc(id);
    expect(d.training.stale).toBeNull();
    expect(modelStatus(d.dates, s.t.clock.now())).toBe('Training');
  });
});
