/**
 * Job failures (ADR 0013): no job outlives its attempt limit, every failure ends terminal with a
 * readable (storable) error, processing names hostile entries, yaml bombs fail once, recovery after
 * kill -9 takes seconds, and the smaller validation gaps. Planted through HTTP on PGlite and PostgreSQL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { jobs } from '../src/platform/db/schema.js';
import { buildTar, buildZip, makeImage, type ZipEntrySpec } from '../src/modules/datasets/processing/test-archives.js';
import { newId } from '../src/platform/ids.js';
import { createTestApp, TEST_DB, TEST_PG_URL, type TestApp } from './support/harness.js';
import { buildDataset, buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type H = Record<string, string>;
const b64 = (s: string) => Buffer.from(s).toString('base64');
type User = { cookie: string; user: { id: string } };

async function newDataset(app: TestApp['app'], cookie: string, name = 'Hostile') {
  return buildDataset(app, cookie, { meta: { name }, task: 'detect' });
}

/** Token, then the tus create + one PATCH that tus-js-client sends. */
async function upload(app: TestApp['app'], u: User, datasetId: string, filename: string, bytes: Buffer) {
  const tok = await app.inject({
    method: 'POST',
    url: '/v1/uploads/token',
    headers: { cookie: u.cookie },
    payload: { path: `users/${u.user.id}/datasets/${datasetId}/${filename}`, bytes: bytes.length },
  });
  expect(tok.statusCode).toBe(200);
  const headers: H = { cookie: u.cookie, 'tus-resumable': '1.0.0' };
  const create = await app.inject({
    method: 'POST',
    url: '/v1/uploads/tus',
    headers: { ...headers, 'upload-length': String(bytes.length), 'upload-metadata': `token ${b64(tok.json().data.token)},filename ${b64(filename)}` },
  });
  expect(create.statusCode).toBe(201);
  const url = new URL(String(create.headers.location), 'http://x').pathname;
  const patch = await app.inject({
    method: 'PATCH',
    url,
    headers: { ...headers, 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: bytes,
  });
  expect(patch.statusCode).toBe(204);
}

async function datasetOf(app: TestApp['app'], cookie: string, id: string) {
  return (await app.inject({ method: 'GET', url: `/v1/datasets/${id}`, headers: { cookie } })).json().data;
}
async function jobOf(datasetId: string) {
  return (
    await t.database.db
      .select()
      .from(jobs)
      .where(eq(jobs.dedupeKey, `dataset:${datasetId}`))
  )[0]!;
}

async function yoloZip(extra: ZipEntrySpec[] = [], yaml = 'names: [a, b]\ntrain: images/train\nval: images/val\n') {
  const png = await makeImage('png', 32, 24);
  return buildZip([
    { name: 'data.yaml', data: yaml },
    { name: 'images/train/x.png', data: png },
    { name: 'labels/train/x.txt', data: '0 0.5 0.5 0.2 0.2\n' },
    { name: 'images/val/y.png', data: png },
    { name: 'labels/val/y.txt', data: '1 0.5 0.5 0.1 0.1\n' },
    ...extra,
  ]);
}

describe('defect 1: every failure ends terminal with a readable error', () => {
  it('a zip with a NUL byte in an entry name reaches Failed within 30 s, naming the entry, through the running job loop', { timeout: 40_000 }, async () => {
    // Jobs on, as in production: the poll loop, not a test drain, has to finish it.
    const live = await createTestApp({ JOBS_ENABLED: 'true' });
    try {
      const u = await buildUser(live.app);
      const d = await newDataset(live.app, u.cookie);
      await upload(live.app, u, d.id, 'nul.zip', await yoloZip([{ name: 'images/train/evil\0name.png', data: 'x' }]));
      const started = Date.now();
      expect((await live.app.inject({ method: 'POST', url: `/v1/datasets/${d.id}/process`, headers: { cookie: u.cookie } })).statusCode).toBe(202);
      let ds = await datasetOf(live.app, u.cookie, d.id);
      while (ds.status !== 'Failed' && Date.now() - started < 30_000) {
        await new Promise((r) => setTimeout(r, 200));
        ds = await datasetOf(live.app, u.cookie, d.id);
      }
      expect(ds.status).toBe('Failed');
      expect(Date.now() - started).toBeLessThan(30_000);
      expect(ds.error).toContain('archive/unsafe-path');
      expect(ds.error).toContain('images/train/evil\\x00name.png');
      expect(ds.error).toMatch(/NUL/);
      const report = (await live.app.inject({ method: 'GET', url: `/v1/datasets/${d.id}/report`, headers: { cookie: u.cookie } })).json().data;
      expect(report.errors[0]).toMatchObject({ code: 'archive/unsafe-path', file: 'images/train/evil\\x00name.png' });
      const [job] = await live.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `dataset:${d.id}`));
      expect(job).toMatchObject({ status: 'done', attempts: 1 });
    } finally {
      await live.close();
    }
  });

  it('other control characters in names are refused with a per-file error naming the entry', async () => {
    const u = await buildUser(t.app);
    const d = await newDataset(t.app, u.cookie);
    await upload(t.app, u, d.id, 'bell.zip', await yoloZip([{ name: 'images/val/ring\u0007\u001b[31m.png', data: 'x' }]));
    await t.app.inject({ method: 'POST', url: `/v1/datasets/${d.id}/process`, headers: { cookie: u.cookie } });
    await t.app.ctx.jobs.drain();
    const ds = await datasetOf(t.app, u.cookie, d.id);
    expect(ds.status).toBe('Failed');
    expect(ds.error).toContain('images/val/ring\\x07\\x1b[31m.png');
    expect(ds.error).toContain('control character');
  });

  it('a "billion laughs" data.yaml fails once, clearly, with no retry', async () => {
    const u = await buildUser(t.app);
    const d = await newDataset(t.app, u.cookie);
    const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 9; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      laughs.push(`${cur}: &${cur} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const yaml = `${laughs.join('\n')}\nnames: *i\ntrain: images/train\nval: images/val\n`;
    await upload(t.app, u, d.id, 'laughs.zip', await yoloZip([], yaml));
    await t.app.inject({ method: 'POST', url: `/v1/datasets/${d.id}/process`, headers: { cookie: u.cookie } });
    await t.app.ctx.jobs.drain();
    t.clock.advance(10 * 60_000);
    expect(await t.app.ctx.jobs.drain()).toBe(0);
    const ds = await datasetOf(t.app, u.cookie, d.id);
    expect(ds.status).toBe('Failed');
    expect(ds.error).toMatch(/^dataset\/yaml-invalid: data\.yaml/);
    expect(ds.error).toMatch(/billion laughs/);
    expect(await jobOf(d.id)).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a job claimed past its attempt limit (holder died on the last try) fails for good and leaves the dataset Failed', async () => {
    const u = await buildUser(t.app);
    const d = await newDataset(t.app, u.cookie);
    await upload(t.app, u, d.id, 'ok.zip', await yoloZip());
    await t.app.inject({ method: 'POST', url: `/v1/datasets/${d.id}/process`, headers: { cookie: u.cookie } });
    // The third attempt's process died mid-run: running, lease run out, attempts used up.
    await t.database.db
      .update(jobs)
      .set({ status: 'running', attempts: 3, lockedUntil: new Date(t.clock.now().getTime() - 1000), lastError: 'killed\u0007 by the OOM killer' })
      .where(eq(jobs.dedupeKey, `dataset:${d.id}`));
    expect(await t.app.ctx.jobs.drain()).toBe(1);
    const job = await jobOf(d.id);
    expect(job.status).toBe('failed');
    expect(job.lastError).toContain('Stopped after 3 attempts');
    expect(job.lastError).toContain('killed\\x07 by the OOM killer');
    const ds = await datasetOf(t.app, u.cookie, d.id);
    expect(ds.status).toBe('Failed');
    expect(ds.error).toMatch(/^error\/processing: Stopped after 3 attempts/);
    // Never claimed again, however long we wait.
    t.clock.advance(60 * 60_000);
    expect(await t.app.ctx.jobs.drain()).toBe(0);
  });

  it('an error text with NUL bytes is stored sanitized and the job still ends failed', async () => {
    const q = t.app.ctx.jobs;
    const failed: string[] = [];
    q.register(
      'test-hostile-error',
      async () => {
        throw new Error('bad\0name\u0001 in "\ud800"');
      },
      { onFailed: async (_job, error) => void failed.push(error) },
    );
    const id = await q.enqueue('test-hostile-error', {}, { maxAttempts: 1 });
    await q.drain();
    const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, id));
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row!.lastError).toBe('bad\\x00name\\x01 in "\ufffd"');
    expect(failed).toEqual([row!.lastError]);
  });
});

describe('defect 6: leases name their holder; a starting instance takes back jobs of dead holders on its host', () => {
  it('reclaims jobs of a dead process or a closed instance of this one, never of a live holder or another host', async () => {
    const q = t.app.ctx.jobs;
    const ran: string[] = [];
    q.register('test-reclaim', async (job) => void ran.push(String(job.payload.n)));
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.once('exit', r));
    const host = os.hostname();
    const holders = {
      deadPid: `${host}:${dead.pid}:gone`,
      closedInstance: `${host}:${process.pid}:closed-instance`,
      live: q.holder,
      otherHost: `elsewhere-${host}:${dead.pid}:x`,
    };
    const ids: Record<string, string> = {};
    for (const [n, holder] of Object.entries(holders)) {
      ids[n] = await q.enqueue('test-reclaim', { n });
      await t.database.db
        .update(jobs)
        .set({ status: 'running', attempts: 1, lockedUntil: new Date(t.clock.now().getTime() + 30_000) })
        .where(eq(jobs.id, ids[n]!));
      await t.database.db.execute(sql`UPDATE jobs SET locked_by = ${holder} WHERE id = ${ids[n]!}`);
    }
    expect(await q.drain()).toBe(0); // all leases still running
    expect(await q.reclaimOrphans()).toBe(2);
    await q.drain();
    expect(ran.sort()).toEqual(['closedInstance', 'deadPid']);
    for (const n of ['live', 'otherHost']) expect((await t.database.db.select().from(jobs).where(eq(jobs.id, ids[n]!)))[0]!.status).toBe('running');
    // the short lease: 31 s later the others are free too (no 5-minute wait)
    t.clock.advance(31_000);
    await q.drain();
    expect(ran.sort()).toEqual(['closedInstance', 'deadPid', 'live', 'otherHost']);
  });
});

describe('defect 7: validation gaps', () => {
  it('a corrupt image is left out of the dataset and named in its report (the image+label pair rule, ADR 0029)', async () => {
    const u = await buildUser(t.app);
    const d = await newDataset(t.app, u.cookie);
    await upload(
      t.app,
      u,
      d.id,
      'corrupt.zip',
      await yoloZip([{ name: 'images/train/broken.jpg', data: Buffer.from('\xff\xd8\xff\xe0 not really a jpeg', 'latin1') }]),
    );
    await t.app.inject({ method: 'POST', url: `/v1/datasets/${d.id}/process`, headers: { cookie: u.cookie } });
    await t.app.ctx.jobs.drain();
    const ds = await datasetOf(t.app, u.cookie, d.id);
    expect(ds.status).toBe('Ready');
    const report = (await t.app.inject({ method: 'GET', url: `/v1/datasets/${d.id}/report`, headers: { cookie: u.cookie } })).json().data;
    expect(report.leftOut).toEqual([expect.objectContaining({ image: 'images/train/broken.jpg', code: 'image/corrupt' })]);
  });

  it('a GNU sparse tar entry is reported as an unsupported sparse entry, not as a link', async () => {
    const u = await buildUser(t.app);
    const d = await newDataset(t.app, u.cookie);
    const png = await makeImage('png', 32, 24);
    const tar = buildTar([
      { name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' },
      { name: 'images/train/x.png', data: png },
      { name: 'labels/train/x.txt', data: '0 0.5 0.5 0.2 0.2\n' },
      { name: 'images/val/y.png', data: png },
      { name: 'labels/val/y.txt', data: '1 0.5 0.5 0.1 0.1\n' },
      { name: 'images/train/holes.png', data: png, type: 'S' },
    ]);
    await upload(t.app, u, d.id, 'sparse.tar', tar);
    await t.app.inject({ method: 'POST', url: `/v1/datasets/${d.id}/process`, headers: { cookie: u.cookie } });
    await t.app.ctx.jobs.drain();
    const ds = await datasetOf(t.app, u.cookie, d.id);
    expect(ds.status).toBe('Failed');
    expect(ds.error).toMatch(/^archive\/unsupported-entry: images\/train\/holes\.png is a GNU sparse file/);
    const report = (await t.app.inject({ method: 'GET', url: `/v1/datasets/${d.id}/report`, headers: { cookie: u.cookie } })).json().data;
    const all = [...report.errors, ...report.warnings];
    expect(all.some((e: { code: string }) => e.code === 'archive/link-skipped')).toBe(false);
  });

  it('an upload token for a Ready dataset leaves it Ready', async () => {
    const u = await buildUser(t.app);
    const d = await newDataset(t.app, u.cookie);
    await upload(t.app, u, d.id, 'ok.zip', await yoloZip());
    await t.app.inject({ method: 'POST', url: `/v1/datasets/${d.id}/process`, headers: { cookie: u.cookie } });
    await t.app.ctx.jobs.drain();
    expect((await datasetOf(t.app, u.cookie, d.id)).status).toBe('Ready');
    const tok = await t.app.inject({
      method: 'POST',
      url: '/v1/uploads/token',
      headers: { cookie: u.cookie },
      payload: { path: `users/${u.user.id}/datasets/${d.id}/again.zip`, bytes: 100 },
    });
    expect(tok.statusCode).toBe(200);
    expect((await datasetOf(t.app, u.cookie, d.id)).status).toBe('Ready');
  });
});

// ---------------------------------------------------------------------------------------------
// defect 6: kill -9 during processing, then restart

const REPO = path.resolve(import.meta.dirname, '../../..');
const PORT = 3800 + (TEST_DB === 'postgres' ? 1 : 0);
const ORIGIN = `http://127.0.0.1:${PORT}`;

function startServer(env: H): { child: ChildProcess; output: () => string } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'apps/server/src/main.ts')], {
    cwd: REPO,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  return { child, output: () => out.slice(-4000) };
}
async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms: number, every = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, every));
  }
}
const http = (method: string, url: string, headers: H = {}, body?: Buffer | string) => fetch(`${ORIGIN}${url}`, { method, headers, body });

describe('defect 6: recovery after kill -9', () => {
  it('kill -9 during processing, restart: the new process takes the job back at once and the dataset is Ready within 60 s', { timeout: 180_000 }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-kill9-'));
    const schema = `t_${newId().toLowerCase()}`;
    const env: H = {
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(PORT),
      PUBLIC_URL: ORIGIN,
      DATA_DIR: dataDir,
      WEB_DIST: path.join(dataDir, 'no-web'),
      SESSION_SECRET: 'kill9-secret-kill9-secret-kill9-secret-01',
      LOG_LEVEL: 'warn',
      ...(TEST_DB === 'postgres' ? { DATABASE_URL: TEST_PG_URL, DATABASE_SCHEMA: schema } : { EMBEDDED_DB: 'pglite' }),
    };
    let server = startServer(env);
    try {
      await waitFor('server up', async () => (await http('GET', '/alive')).ok, 60_000, 250);
      const signup = await http(
        'POST',
        '/v1/auth/signup',
        { 'content-type': 'application/json' },
        JSON.stringify({
          email: `k9-${newId().slice(0, 6).toLowerCase()}@example.com`,
          password: 'correct-horse-9',
          username: `k${newId().slice(0, 10)}`,
          firstName: 'K',
        }),
      );
      expect(signup.status).toBe(201);
      const cookie = (signup.headers.get('set-cookie') ?? '').split(';')[0]!;
      const uid = ((await signup.json()) as { data: { user: { id: string } } }).data.user.id;
      const d = (
        (await (
          await http('POST', '/v1/datasets', { cookie, 'content-type': 'application/json' }, JSON.stringify({ meta: { name: 'Big' }, task: 'detect' }))
        ).json()) as { data: { id: string } }
      ).data;

      // Enough images that processing takes seconds: the kill lands in the middle of it.
      const png = await makeImage('png', 32, 24);
      const entries: ZipEntrySpec[] = [{ name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' }];
      for (let i = 0; i < 6000; i++) {
        const split = i % 5 === 0 ? 'val' : 'train';
        entries.push(
          { name: `images/${split}/i${i}.png`, data: png, method: 'store' },
          { name: `labels/${split}/i${i}.txt`, data: `${i % 2} 0.5 0.5 0.2 0.2\n`, method: 'store' },
        );
      }
      const zip = buildZip(entries);
      const tok = (await (
        await http(
          'POST',
          '/v1/uploads/token',
          { cookie, 'content-type': 'application/json' },
          JSON.stringify({ path: `users/${uid}/datasets/${d.id}/big.zip`, bytes: zip.length }),
        )
      ).json()) as { data: { token: string } };
      const create = await http('POST', '/v1/uploads/tus', {
        cookie,
        'tus-resumable': '1.0.0',
        'upload-length': String(zip.length),
        'upload-metadata': `token ${b64(tok.data.token)},filename ${b64('big.zip')}`,
      });
      expect(create.status).toBe(201);
      const loc = new URL(create.headers.get('location')!, ORIGIN).pathname;
      expect(
        (await http('PATCH', loc, { cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' }, zip)).status,
      ).toBe(204);
      expect((await http('POST', `/v1/datasets/${d.id}/process`, { cookie })).status).toBe(202);

      type Active = {
        data: { processing: Array<{ datasetId: string; status: string; attempts: number; progress: { phase: string; done: number; total: number } | null }> };
      };
      const during = await waitFor(
        'processing under way',
        async () => {
          const p = ((await (await http('GET', '/v1/active-jobs', { cookie })).json()) as Active).data.processing.find((x) => x.datasetId === d.id);
          return p && p.attempts === 1 && p.progress?.phase === 'images' && p.progress.done < p.progress.total ? p : null;
        },
        60_000,
        20,
      );
      server.child.kill('SIGKILL');
      await new Promise((r) => server.child.once('exit', r));
      expect(during.status).toBe('Loading');

      server = startServer(env);
      const restartedAt = Date.now();
      await waitFor('server up again', async () => (await http('GET', '/alive')).ok, 60_000, 100).catch((err: Error) => {
        throw new Error(`${err.message}; server output:\n${server.output()}`);
      });
      const bootMs = Date.now() - restartedAt;
      const ready = await waitFor(
        'Ready after restart',
        async () => {
          const ds = ((await (await http('GET', `/v1/datasets/${d.id}`, { cookie })).json()) as { data: { status: string; stats: { images: number } | null } })
            .data;
          expect(ds.status).not.toBe('Failed');
          return ds.status === 'Ready' ? ds : null;
        },
        60_000,
        200,
      );
      const took = Date.now() - restartedAt;
      console.info(`kill -9 recovery: Ready ${took} ms after the restart, of which ${bootMs} ms booting the server (${TEST_DB})`);
      expect(took).toBeLessThan(60_000);
      expect(ready.stats?.images).toBe(6000);
      const imgs = ((await (await http('GET', `/v1/datasets/${d.id}/images?limit=1`, { cookie })).json()) as { data: { total: number } }).data;
      expect(imgs.total).toBe(6000); // no duplicates from the killed run
    } finally {
      server.child.kill('SIGKILL');
      await new Promise((r) => (server.child.exitCode !== null ? r(null) : server.child.once('exit', r)));
      if (TEST_DB === 'postgres') {
        const { openDatabase } = await import('../src/platform/db/client.js');
        const admin = await openDatabase({ url: TEST_PG_URL, pgliteDir: null, poolSize: 1 });
        await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.close();
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
