import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { EXTERNAL_FETCH_LIMIT, EXTERNAL_PREVIEW_LIMIT } from '@sightline/contracts';
import { buildApp, loggerOptions } from '../src/app.js';
import { PREVIEW_LIMIT, PROJECT_LIMIT } from '../src/modules/integrations/integrations.service.js';
import { datasets, integrations, jobs, roboflowImports, subscriptions } from '../src/platform/db/schema.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { FakeRoboflow, instanceCounts, sampleDetectionProject, type FakeProject } from './support/fake-roboflow.js';

const KEY = 'priv4teKEYsightline0123456789';
const OTHER_KEY = 'otherWSkey000111222333444';
const PUBLISHABLE = 'rf_publishableKEY998877';
const BAD_KEY = 'revokedKEY55443322110099';

const shapes = sampleDetectionProject('shapes-4ckfl');
const projects: FakeProject[] = [
  shapes,
  { ...sampleDetectionProject('slow-export'), name: 'Slow export', versions: [{ number: 1, neverReady: true }] },
  { ...sampleDetectionProject('broken-zip'), name: 'Broken zip', versions: [{ number: 1, truncatedZip: true }] },
  { ...sampleDetectionProject('cut-off'), name: 'Cut off', versions: [{ number: 1, cutTransfer: true }] },
  { ...sampleDetectionProject('no-versions'), name: 'No versions yet', versions: [] },
  { ...sampleDetectionProject('keypoints'), name: 'Hands', type: 'keypoint-detection' },
  { ...sampleDetectionProject('empty'), name: 'Empty', images: [], versions: [] },
];
const fake = new FakeRoboflow(
  [
    { slug: 'acme', name: 'Acme Vision', projects },
    { slug: 'other-ws', name: 'Other', projects: [{ ...sampleDetectionProject('hidden'), name: 'Hidden' }] },
    { slug: 'universe-owner', name: 'Universe Owner', projects: [{ ...sampleDetectionProject('public-shapes'), name: 'Public shapes', public: true }] },
  ],
  { [KEY]: 'acme', [OTHER_KEY]: 'other-ws' },
);

let t: TestApp;
let app: FastifyInstance;
const logLines: string[] = [];
const bodies: string[] = [];

beforeAll(async () => {
  await fake.start();
  t = await createTestApp({ ROBOFLOW_API_URL: fake.url, ROBOFLOW_EXPORT_TIMEOUT_MS: '2000', ROBOFLOW_POLL_MS: '10' });
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      logLines.push(chunk.toString('utf8'));
      cb();
    },
  });
  // The app under test logs everything (trace) into memory, so the key grep sees every line.
  app = await buildApp({
    config: t.config,
    database: t.database,
    clock: t.clock,
    logger: { ...loggerOptions({ ...t.config, logLevel: 'trace' }), stream: sink },
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await t?.close();
  await fake.stop();
});
beforeEach(() => fake.reset());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
async function call(method: Method, url: string, cookie: string, payload?: unknown) {
  const res = await app.inject({ method, url, headers: { cookie }, payload: payload as never });
  bodies.push(res.body);
  return res;
}
const P = '/v1/integrations/roboflow/projects';
async function linked() {
  const u = await buildUser(app);
  const res = await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: KEY });
  expect(res.statusCode).toBe(201);
  return { ...u, integration: res.json().data };
}
const drain = () => app.ctx.jobs.drain();
const importRow = async (id: string) => (await t.database.db.select().from(roboflowImports).where(eq(roboflowImports.id, id)))[0]!;
const datasetCount = async (userId: string) =>
  Number(
    (
      await t.database.db
        .select({ n: sql<number>`count(*)` })
        .from(datasets)
        .where(eq(datasets.userId, userId))
    )[0]!.n,
  );

describe('linking a workspace', () => {
  it('checks the key at the root endpoint, stores it encrypted, never returns it; replace and remove', async () => {
    const u = await buildUser(app);
    const bad = await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: BAD_KEY });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'roboflow/invalid-key' });
    expect(bad.json().error.message).toMatch(/does not accept this API key/);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: '/' });

    const pub = await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: PUBLISHABLE });
    expect(pub.json().error).toMatchObject({ code: 'roboflow/publishable-key' });
    expect(pub.json().error.message).toMatch(/publishable key .* Private API Key/);

    const ok = await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: KEY });
    expect(ok.statusCode).toBe(201);
    expect(ok.json().data).toMatchObject({ type: 'roboflow', workspace: { slug: 'acme', name: 'Acme Vision' } });
    const stored = (await t.database.db.select().from(integrations).where(eq(integrations.userId, u.user.id)))[0]!;
    expect(stored.apiKeyEnc).toMatch(/^v1\./);
    expect(stored.apiKeyEnc).not.toContain(KEY);

    const overview = await call('GET', '/v1/integrations', u.cookie);
    expect(overview.json().data).toMatchObject({ integrations: [{ workspace: { slug: 'acme' } }], subscriptions: [], settings: { uploadAllWeights: false } });

    // a key of another workspace cannot replace this one; the same workspace's key can
    const wrong = await call('PUT', `/v1/integrations/${stored.id}/key`, u.cookie, { apiKey: OTHER_KEY });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error.message).toContain('"other-ws", not "acme"');
    const replaced = await call('PUT', `/v1/integrations/${stored.id}/key`, u.cookie, { apiKey: KEY });
    expect(replaced.statusCode).toBe(200);
    const after = (await t.database.db.select().from(integrations).where(eq(integrations.id, stored.id)))[0]!;
    expect(after.apiKeyEnc).not.toBe(stored.apiKeyEnc);

    // someone else cannot see or remove it
    const other = await buildUser(app);
    expect((await call('DELETE', `/v1/integrations/${stored.id}`, other.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', `/v1/integrations/${stored.id}`, u.cookie)).statusCode).toBe(200);
    expect((await call('GET', '/v1/integrations', u.cookie)).json().data.integrations).toEqual([]);
  });

  it('stores the uploadAllWeights setting', async () => {
    const u = await buildUser(app);
    const res = await call('PATCH', '/v1/integrations/settings', u.cookie, { uploadAllWeights: true });
    expect(res.json().data).toEqual({ uploadAllWeights: true });
    expect((await call('GET', '/v1/integrations', u.cookie)).json().data.settings).toEqual({ uploadAllWeights: true });
  });

  it('a 429 is retried, and a lasting one gets a clear message', async () => {
    const u = await buildUser(app);
    fake.fail('root', { status: 429, headers: { 'retry-after': '0' }, body: { error: 'rate limited' } });
    expect((await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: KEY })).statusCode).toBe(201);
    fake.fail('root', { status: 429, headers: { 'retry-after': '0' } }, 10);
    const res = await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: KEY });
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatchObject({ code: 'roboflow/rate-limited', message: expect.stringMatching(/rate limiting/) });
  });
});

describe('browsing', () => {
  it('lists projects with the task mapping, statuses, and unknown types greyed (and logged)', async () => {
    const u = await linked();
    const res = await call('GET', '/v1/integrations/roboflow/browse', u.cookie);
    expect(res.statusCode).toBe(200);
    const [ws] = res.json().data.workspaces;
    expect(ws).toMatchObject({ workspace: { slug: 'acme', name: 'Acme Vision' }, error: null, more: 0 });
    const byId = Object.fromEntries(ws.projects.map((p: { id: string }) => [p.id, p]));
    expect(byId['acme/shapes-4ckfl']).toMatchObject({
      name: 'Shapes',
      type: 'object-detection',
      task: 'detect',
      status: 'Ready',
      images: 8,
      versions: 2,
      classes: instanceCounts(shapes),
      splits: { train: 5, valid: 2, test: 1 },
      icon: '/v1/integrations/roboflow/projects/acme/shapes-4ckfl/icon',
      updated: new Date(1700000000.5 * 1000).toISOString(),
      unsupportedReason: null,
    });
    expect(byId['acme/no-versions']).toMatchObject({ status: 'No Version' });
    expect(byId['acme/empty']).toMatchObject({ status: 'No Images' });
    expect(byId['acme/keypoints']).toMatchObject({ task: null, unsupportedReason: expect.stringContaining('"keypoint-detection" cannot be imported') });
    expect(logLines.join('')).toMatch(/"project":"acme\/keypoints".*not imported, skipped/);

    const icon = await app.inject({ method: 'GET', url: byId['acme/shapes-4ckfl'].icon, headers: { cookie: u.cookie } });
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['content-type']).toBe('image/jpeg');
  });

  it('subscribes to a Universe project by URL or slug; a 404 project is a clear error', async () => {
    const u = await linked();
    const missing = await call('POST', '/v1/integrations/roboflow/subscriptions', u.cookie, { project: 'universe-owner/nope' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toMatchObject({ code: 'roboflow/not-found', message: expect.stringContaining('"universe-owner/nope" was not found') });
    const privateOne = await call('POST', '/v1/integrations/roboflow/subscriptions', u.cookie, { project: 'other-ws/hidden' });
    expect(privateOne.statusCode).toBe(404);

    const sub = await call('POST', '/v1/integrations/roboflow/subscriptions', u.cookie, {
      project: 'https://universe.roboflow.com/universe-owner/public-shapes/dataset/1',
    });
    expect(sub.statusCode).toBe(201);
    expect(sub.json().data).toMatchObject({ ref: { collection: 'ext_roboflow', id: 'universe-owner/public-shapes' }, hasOwnKey: false });
    const again = await call('POST', '/v1/integrations/roboflow/subscriptions', u.cookie, { project: 'universe-owner/public-shapes' });
    expect(again.json().data.id).toBe(sub.json().data.id);

    const browse = (await call('GET', '/v1/integrations/roboflow/browse', u.cookie)).json().data;
    expect(browse.subscriptions).toEqual([
      expect.objectContaining({
        ref: 'universe-owner/public-shapes',
        error: null,
        project: expect.objectContaining({ source: 'universe', status: 'Ready', task: 'detect' }),
      }),
    ]);
    // Universe: never GET /<foreign workspace>
    expect(fake.requests.some((r) => r.path === '/universe-owner')).toBe(false);

    const noKeyUser = await buildUser(app);
    const needKey = await call('POST', '/v1/integrations/roboflow/subscriptions', noKeyUser.cookie, { project: 'universe-owner/public-shapes' });
    expect(needKey.json().error.code).toBe('roboflow/not-linked');
    expect((await call('DELETE', `/v1/integrations/roboflow/subscriptions/${sub.json().data.id}`, u.cookie)).statusCode).toBe(200);
    expect(await t.database.db.select().from(subscriptions).where(eq(subscriptions.userId, u.user.id))).toEqual([]);
  });

  it('project page: versions, class and split counts, 5 previews with their boxes', async () => {
    const u = await linked();
    const detail = await call('GET', `${P}/acme/shapes-4ckfl`, u.cookie);
    expect(detail.statusCode).toBe(200);
    const d = detail.json().data;
    expect(d.project).toMatchObject({ classes: instanceCounts(shapes), splits: { train: 5, valid: 2, test: 1 } });
    expect(d.versions.map((v: { number: number }) => v.number)).toEqual([2, 1]);
    expect(d.versions[0]).toMatchObject({ id: 'acme/shapes-4ckfl/2', name: 'augmented', images: 8, import: null });

    const prev = await call('GET', `${P}/acme/shapes-4ckfl/previews`, u.cookie);
    const list = prev.json().data;
    expect(list).toHaveLength(5);
    expect(list[0]).toMatchObject({ width: 64, height: 48, labels: ['circle', 'square'], image: expect.stringMatching(/^data:image\/jpeg;base64,/) });
    expect(list[0].boxes[0]).toEqual({ label: 'circle', x: 0.3 * 64, y: 0.4 * 48, width: 0.3 * 64, height: 0.4 * 48 });
    const search = fake.requests.find((r) => r.path === '/acme/shapes-4ckfl/search');
    expect(search?.method).toBe('POST');

    const stranger = await buildUser(app);
    const denied = await call('GET', `${P}/acme/shapes-4ckfl`, stranger.cookie);
    expect(denied.statusCode).toBe(404);
    expect(denied.json().error.code).toBe('roboflow/not-linked');
  });
});

describe('importing', () => {
  it('imports a version through the export endpoint into a processed dataset; twice gives one dataset; re-sync takes only new versions', async () => {
    const u = await linked();
    const start = await call('POST', `${P}/acme/shapes-4ckfl/versions/1/import`, u.cookie);
    expect(start.statusCode).toBe(202);
    expect(start.json().data).toMatchObject({ project: 'acme/shapes-4ckfl', version: 1, status: 'queued', dataset: null });
    expect(await datasetCount(u.user.id)).toBe(0);
    await drain();

    const exportCalls = fake.requests.filter((r) => r.path === '/acme/shapes-4ckfl/1/yolov8');
    expect(exportCalls.length).toBe(3); // two 202 "generating" answers, then the link
    const link = fake.requests.find((r) => r.path.startsWith('/ds/'))!;
    expect(link.url).not.toContain(KEY);
    expect(fake.requests.find((r) => r.path.startsWith('/__blob/'))!.url).not.toContain(KEY);

    const imp = (await call('GET', '/v1/integrations/roboflow/imports', u.cookie)).json().data[0];
    expect(imp).toMatchObject({ status: 'imported', error: null, dataset: { status: 'Ready', name: 'Shapes v1' } });
    const ds = (await call('GET', `/v1/datasets/${imp.dataset.id}`, u.cookie)).json().data;
    expect(ds).toMatchObject({ provider: 'roboflow', roboflow: { type: 'workspace', totalVersions: 2 }, task: 'detect', status: 'Ready' });
    expect(ds.stats).toMatchObject({ classes: ['circle', 'square', 'triangle'], images: 8, train: 5, val: 2, test: 1 });
    const per = (split: string) => ds.splitStats[split].instance_stats.per_class as number[];
    const perClass = per('train').map((n, i) => n + per('val')[i]! + per('test')[i]!);
    expect(perClass).toEqual([instanceCounts(shapes).circle, instanceCounts(shapes).square, instanceCounts(shapes).triangle]);
    const images = (await call('GET', `/v1/datasets/${ds.id}/images?limit=50`, u.cookie)).json().data;
    expect(images.total).toBe(8);

    // the same version again: the same import and dataset
    const again = await call('POST', `${P}/acme/shapes-4ckfl/versions/1/import`, u.cookie);
    expect(again.statusCode).toBe(200);
    expect(again.json().data.dataset.id).toBe(ds.id);
    await drain();
    expect(await datasetCount(u.user.id)).toBe(1);

    // the project page shows the import on its version
    const detail = (await call('GET', `${P}/acme/shapes-4ckfl`, u.cookie)).json().data;
    expect(detail.versions.find((v: { number: number }) => v.number === 1).import.dataset.id).toBe(ds.id);

    const sync = await call('POST', `${P}/acme/shapes-4ckfl/sync`, u.cookie);
    expect(sync.json().data.started.map((i: { version: number }) => i.version)).toEqual([2]);
    await drain();
    expect(await datasetCount(u.user.id)).toBe(2);
    const resync = await call('POST', `${P}/acme/shapes-4ckfl/sync`, u.cookie);
    expect(resync.json().data).toEqual({ started: [], upToDate: true });
    expect(await datasetCount(u.user.id)).toBe(2);
  });

  it('refuses unknown types, projects with no versions and 404 projects with a clear message', async () => {
    const u = await linked();
    const kp = await call('POST', `${P}/acme/keypoints/versions/1/import`, u.cookie);
    expect(kp.statusCode).toBe(400);
    expect(kp.json().error).toMatchObject({ code: 'roboflow/unsupported-type', message: expect.stringContaining('keypoint-detection') });
    const none = await call('POST', `${P}/acme/no-versions/versions/1/import`, u.cookie);
    expect(none.json().error).toMatchObject({ code: 'roboflow/no-versions', message: expect.stringContaining('has no versions yet') });
    const gone = await call('POST', `${P}/acme/deleted-project/versions/1/import`, u.cookie);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error).toMatchObject({ code: 'roboflow/not-found', message: expect.stringContaining('"acme/deleted-project" was not found') });
    expect(await t.database.db.select().from(roboflowImports).where(eq(roboflowImports.userId, u.user.id))).toEqual([]);
    expect(await datasetCount(u.user.id)).toBe(0);
  });

  it('faults end as a failed import with the reason and no dataset: export timeout, expired link, truncated zip', async () => {
    const u = await linked();
    const slow = (await call('POST', `${P}/acme/slow-export/versions/1/import`, u.cookie)).json().data;
    await drain();
    expect(await importRow(slow.id)).toMatchObject({ status: 'failed', errorCode: 'roboflow/export-timeout', datasetId: null });
    expect((await importRow(slow.id)).error).toMatch(/still generating the export of version 1 after 2 s \(at 40%\)/);

    fake.linkTtlMs = 0;
    const expired = (await call('POST', `${P}/acme/shapes-4ckfl/versions/1/import`, u.cookie)).json().data;
    await drain();
    const row = await importRow(expired.id);
    expect(row).toMatchObject({ status: 'failed', errorCode: 'roboflow/link-expired', datasetId: null });
    expect(row.error).toMatch(/expired before the download started, twice/);
    expect(fake.requests.filter((r) => r.path.startsWith('/ds/')).length).toBe(2); // one fresh link was asked for
    fake.linkTtlMs = 60_000;

    const broken = (await call('POST', `${P}/acme/broken-zip/versions/1/import`, u.cookie)).json().data;
    await drain();
    expect(await importRow(broken.id)).toMatchObject({ status: 'failed', errorCode: 'roboflow/bad-archive', datasetId: null });
    expect((await importRow(broken.id)).error).toMatch(/not a complete zip/);
    expect(await datasetCount(u.user.id)).toBe(0);

    // the failure shows on the imports list; retry once the link works again
    const listed = (await call('GET', '/v1/integrations/roboflow/imports', u.cookie)).json().data.find((i: { id: string }) => i.id === expired.id);
    expect(listed).toMatchObject({ status: 'failed', error: { code: 'roboflow/link-expired' } });
    const retried = await call('POST', `/v1/integrations/roboflow/imports/${expired.id}/retry`, u.cookie);
    expect(retried.json().data.status).toBe('queued');
    await drain();
    expect(await importRow(expired.id)).toMatchObject({ status: 'imported', error: null });
    expect(await datasetCount(u.user.id)).toBe(1);
  });

  it('a download cut off halfway is retried by the job queue and ends failed with the reason, no dataset', async () => {
    const u = await linked();
    const imp = (await call('POST', `${P}/acme/cut-off/versions/1/import`, u.cookie)).json().data;
    await drain();
    expect(await importRow(imp.id)).toMatchObject({ status: 'queued', errorCode: 'roboflow/bad-archive', datasetId: null });
    for (let i = 0; i < 2; i++) {
      t.clock.advance(10_000);
      await drain();
    }
    const row = await importRow(imp.id);
    expect(row).toMatchObject({ status: 'failed', errorCode: 'roboflow/bad-archive', datasetId: null });
    expect(row.error).toMatch(/cut off after \d+ bytes; nothing was imported/);
    expect(fake.requests.filter((r) => r.path.startsWith('/__blob/')).length).toBe(3);
    expect(await datasetCount(u.user.id)).toBe(0);
  });

  it('a rate-limited export is retried by the job queue, then succeeds', async () => {
    const u = await linked();
    fake.fail('export', { status: 429, headers: { 'retry-after': '0' } }, 4);
    const imp = (await call('POST', `${P}/acme/shapes-4ckfl/versions/2/import`, u.cookie)).json().data;
    await drain();
    const first = await importRow(imp.id);
    expect(first).toMatchObject({ status: 'queued', errorCode: 'roboflow/rate-limited' });
    expect(first.error).toMatch(/rate limiting .* Retrying automatically/);
    t.clock.advance(5_000); // the job's backoff
    await drain();
    expect(await importRow(imp.id)).toMatchObject({ status: 'imported' });
  });

  it('cancel stops a running import; nothing is left behind', async () => {
    const u = await linked();
    const slowApp = await buildApp({
      config: { ...t.config, roboflow: { ...t.config.roboflow, exportTimeoutMs: 60_000, pollMs: 20 } },
      database: t.database,
      clock: t.clock,
      logger: false,
    });
    await slowApp.ready();
    try {
      const imp = (await call('POST', `${P}/acme/slow-export/versions/1/import`, u.cookie)).json().data;
      const running = slowApp.ctx.jobs.drain();
      await expect.poll(async () => (await importRow(imp.id)).status).toBe('exporting');
      const cancelled = await call('POST', `/v1/integrations/roboflow/imports/${imp.id}/cancel`, u.cookie);
      expect(cancelled.statusCode).toBe(200);
      await running;
      expect(await importRow(imp.id)).toMatchObject({ status: 'cancelled', datasetId: null });
      expect(await datasetCount(u.user.id)).toBe(0);
    } finally {
      await slowApp.close();
    }
  });

  it('survives a server restart: a job whose instance died is picked up by the next one', async () => {
    const u = await linked();
    const imp = (await call('POST', `${P}/acme/shapes-4ckfl/versions/2/import`, u.cookie)).json().data;
    // the instance that claimed it died mid-download
    await t.database.db
      .update(jobs)
      .set({ status: 'running', attempts: 1, lockedUntil: new Date(t.clock.now().getTime() + 60_000) })
      .where(eq(jobs.dedupeKey, `roboflow-import:${imp.id}`));
    await t.database.db.update(roboflowImports).set({ status: 'downloading', phase: 'download' }).where(eq(roboflowImports.id, imp.id));
    const restarted = await buildApp({ config: t.config, database: t.database, clock: t.clock, logger: false });
    await restarted.ready();
    try {
      expect(await restarted.ctx.jobs.drain()).toBe(0); // lease still held
      t.clock.advance(6 * 60_000);
      await restarted.ctx.jobs.drain();
      expect(await importRow(imp.id)).toMatchObject({ status: 'imported' });
      expect(await datasetCount(u.user.id)).toBe(1);
    } finally {
      await restarted.close();
    }
  });
});

describe('the key stays secret', () => {
  it('appears in no response, log line, stored error or job record', async () => {
    // one more round with every kind of failure that could echo it
    const u = await buildUser(app);
    await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: BAD_KEY });
    await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: PUBLISHABLE });
    await call('POST', '/v1/integrations/roboflow/workspaces', u.cookie, { apiKey: KEY });
    fake.fail('project', { status: 500, body: `internal error for api_key=${KEY}` }, 10);
    await call('GET', `${P}/acme/shapes-4ckfl`, u.cookie);
    await call('GET', '/v1/integrations/roboflow/browse', u.cookie);
    await call('GET', `/v1/integrations/roboflow/projects/acme/shapes-4ckfl/previews?api_key=${KEY}`, u.cookie);

    const everything = [
      ...bodies,
      ...logLines,
      JSON.stringify(await t.database.db.select().from(roboflowImports)),
      JSON.stringify(await t.database.db.select().from(jobs)),
      JSON.stringify(await t.database.db.select().from(integrations)),
      JSON.stringify(await t.database.db.select().from(subscriptions)),
    ].join('\n');
    expect(bodies.length).toBeGreaterThan(40);
    expect(logLines.length).toBeGreaterThan(40);
    expect(everything).toContain('[redacted]'); // the request URL above
    for (const secret of [KEY, BAD_KEY, PUBLISHABLE, OTHER_KEY]) expect(everything).not.toContain(secret);
    // and Roboflow did see the keys (so the grep could have failed)
    expect(fake.requests.some((r) => r.url.includes(KEY))).toBe(true);
    expect(fake.requests.some((r) => r.url.includes(BAD_KEY))).toBe(true);
  });
});

describe('spec mapping: Roboflow calls (docs/spec-mapping.md)', () => {
  it("uses only Roboflow's documented calls, never the spec's {workspace}/{project}/dataset, with the spec's limits", async () => {
    expect(PROJECT_LIMIT).toBe(EXTERNAL_FETCH_LIMIT);
    expect(PREVIEW_LIMIT).toBe(EXTERNAL_PREVIEW_LIMIT);
    expect([EXTERNAL_FETCH_LIMIT, EXTERNAL_PREVIEW_LIMIT]).toEqual([100, 5]);
    const mapping = readFileSync(new URL('../../../docs/spec-mapping.md', import.meta.url), 'utf8');
    expect(mapping).toContain('`{workspace}/{project}/dataset?api_key&limit=100`');

    const u = await linked();
    expect((await call('GET', '/v1/integrations/roboflow/browse', u.cookie)).statusCode).toBe(200);
    expect((await call('GET', `${P}/acme/shapes-4ckfl`, u.cookie)).statusCode).toBe(200);
    expect((await call('GET', `${P}/acme/shapes-4ckfl/previews`, u.cookie)).json().data.length).toBeLessThanOrEqual(EXTERNAL_PREVIEW_LIMIT);
    expect((await call('POST', `${P}/acme/shapes-4ckfl/versions/1/import`, u.cookie)).statusCode).toBe(202);
    await drain();
    const paths = fake.requests.map((r) => `${r.method} ${r.path}`);
    expect(paths.length).toBeGreaterThan(5);
    // Every call is one of the documented ones (shared/reference/roboflow-api.md): root, workspace,
    // project, project search, image details, version, version export, and the links Roboflow
    // answers with (the export's download, image URLs; the fake serves them under /ds, /__blob, /__img).
    const documented = [
      /^GET \/$/,
      /^GET \/[^/]+$/,
      /^GET \/[^/]+\/[^/]+$/,
      /^POST \/[^/]+\/[^/]+\/search$/,
      /^GET \/[^/]+\/[^/]+\/images\/[^/]+$/,
      /^GET \/[^/]+\/[^/]+\/\d+$/,
      /^GET \/[^/]+\/[^/]+\/\d+\/[a-z0-9-]+$/,
      /^GET \/(ds|__blob|__img)\//,
    ];
    for (const p of paths)
      expect(
        documented.some((re) => re.test(p)),
        p,
      ).toBe(true);
    expect(paths.filter((p) => /\/dataset(\?|$)/.test(p))).toEqual([]);
  });
});
