import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildZip, makeImage } from '../src/modules/datasets/processing/test-archives.js';
import { startAgent } from '../test/support/agents.js';
import { startS3rver } from '../test/support/s3rver.js';

/**
 * The scale-out suite (docs/deploy.md, ADR 0025): two instances on one PostgreSQL (the machine's, in
 * a private schema), s3rver for blobs, nginx from Debian's packages in front with the guide's own
 * file (deploy/nginx/sightline.conf), and every check made through the proxy the way a deployment
 * is used. Each check prints its figure; the last line prints the minutes. Ports 3770–3773.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const PORTS = { proxy: 3770, a: 3771, b: 3772, s3: 3773 };
const PROXY = `http://127.0.0.1:${PORTS.proxy}`;
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `scaleout_${process.pid}_${Date.now().toString(36)}`;
const LEASE_S = 3;
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => fs.existsSync(p));
const started = Date.now();
const figures: string[] = [];
const report = (check: string, figure: string) => {
  const line = `scale-out: ${check.padEnd(58)} ${figure}`;
  figures.push(line);
  console.log(line);
};

// ---------------------------------------------------------------- processes

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-scaleout-'));
let s3: Awaited<ReturnType<typeof startS3rver>>;
let nginx: ChildProcess | null = null;
let db: pg.Client;

interface Instance {
  name: 'a' | 'b';
  port: number;
  proc: ChildProcess | null;
  log: string;
}
const inst: Record<'a' | 'b', Instance> = {
  a: { name: 'a', port: PORTS.a, proc: null, log: path.join(work, 'a.log') },
  b: { name: 'b', port: PORTS.b, proc: null, log: path.join(work, 'b.log') },
};
const other = (i: Instance) => (i.name === 'a' ? inst.b : inst.a);

async function startInstance(i: Instance) {
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(i.port),
    PUBLIC_URL: PROXY,
    DATABASE_URL: PG_URL,
    DATABASE_SCHEMA: SCHEMA,
    SESSION_SECRET: 'scale-out-suite-shared-secret-0123456789abcdef',
    DATA_DIR: path.join(work, `data-${i.name}`),
    TRUST_PROXY: '127.0.0.1',
    JOB_LEASE_SECONDS: String(LEASE_S),
    LOG_LEVEL: 'info',
    ...s3.env,
  };
  const out = fs.openSync(i.log, 'a');
  // The compiled service command of docs/deploy.md §3 (ADR 0036), built once in beforeAll.
  i.proc = spawn(process.execPath, ['--enable-source-maps', 'apps/server/dist/main.js'], { cwd: ROOT, env, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  await until(async () => (await request(`http://127.0.0.1:${i.port}/alive`).catch(() => null))?.status === 200, 120_000, `instance ${i.name} listening`);
}

function stopInstance(i: Instance, signal: NodeJS.Signals = 'SIGTERM') {
  const p = i.proc;
  i.proc = null;
  if (!p || p.exitCode !== null) return Promise.resolve();
  const exited = new Promise((r) => p.once('exit', r));
  p.kill(signal);
  return exited;
}

function startNginx() {
  const recipe = fs.readFileSync(path.join(ROOT, 'deploy/nginx/sightline.conf'), 'utf8');
  // The guide's file with this run's addresses; one header added to see which instance answered.
  const site = recipe
    .replace(
      /^(\s*)server 10\.0\.0\.11:3000([^;]*);\n\s*server 10\.0\.0\.12:3000([^;]*);/m,
      `$1server 127.0.0.1:${PORTS.a}$2;\n$1server 127.0.0.1:${PORTS.b}$3;`,
    )
    .replace(/listen 80;/, `listen 127.0.0.1:${PORTS.proxy};`)
    .replace(/location \/ \{/, 'location / {\n        add_header X-Upstream $upstream_addr always;');
  expect(site).toContain(`server 127.0.0.1:${PORTS.b}`);
  fs.mkdirSync(path.join(work, 'nginx/logs'), { recursive: true });
  fs.writeFileSync(path.join(work, 'nginx/site.conf'), site);
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `${t}_temp_path ${path.join(work, `nginx/${t}`)};`).join('\n  ');
  fs.writeFileSync(
    path.join(work, 'nginx/nginx.conf'),
    `worker_processes 1;\npid ${path.join(work, 'nginx/nginx.pid')};\nerror_log ${path.join(work, 'nginx/logs/error.log')} warn;\nevents { worker_connections 512; }\nhttp {\n  access_log off;\n  ${temp}\n  include ${path.join(work, 'nginx/site.conf')};\n}\n`,
  );
  nginx = spawn(NGINX!, ['-p', path.join(work, 'nginx'), '-c', path.join(work, 'nginx/nginx.conf'), '-g', 'daemon off;'], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
}

// ---------------------------------------------------------------- HTTP

interface Res {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  json: () => { data: Record<string, unknown> & { id: string } } & Record<string, unknown>;
}
function request(url: string, opts: { method?: string; headers?: Record<string, string>; body?: Buffer | string | object; from?: string } = {}): Promise<Res> {
  const body = opts.body === undefined ? undefined : Buffer.isBuffer(opts.body) || typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  const headers: Record<string, string> = { ...(opts.headers ?? {}) };
  if (opts.body !== undefined && !Buffer.isBuffer(opts.body) && typeof opts.body === 'object') headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method ?? 'GET', headers, localAddress: opts.from, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const buf = Buffer.concat(parts);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: buf, json: () => JSON.parse(buf.toString('utf8')) });
      });
      res.on('error', reject);
    });
    req.setTimeout(30_000, () => req.destroy(new Error(`timeout: ${opts.method ?? 'GET'} ${url}`)));
    req.on('error', reject);
    req.end(body);
  });
}
const via = (p: string, opts: Parameters<typeof request>[1] = {}) => request(`${PROXY}${p}`, opts);
const direct = (i: Instance, p: string, opts: Parameters<typeof request>[1] = {}) => request(`http://127.0.0.1:${i.port}${p}`, opts);
const upstreamOf = (r: Res) =>
  String(r.headers['x-upstream'] ?? '')
    .split(',')
    .pop()!
    .trim();

async function until(check: () => Promise<boolean>, ms: number, what: string, everyMs = 100) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

let seq = 0;
async function signUp(password = 'scale-out-pass-1') {
  seq += 1;
  const email = `scale${seq}-${Date.now().toString(36)}@example.com`;
  const res = await via('/v1/auth/signup', { method: 'POST', body: { email, password, username: `so${seq}${Date.now().toString(36)}`, firstName: 'Scale' } });
  expect(res.status, res.body.toString()).toBe(201);
  const cookie = String(res.headers['set-cookie']?.find((c) => c.startsWith('sl_session='))).split(';')[0]!;
  return { id: (res.json().data.user as { id: string }).id, email, password, cookie };
}
type User = Awaited<ReturnType<typeof signUp>>;

// ---------------------------------------------------------------- datasets

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A YOLO detect archive of `count` small PNGs with one label each. */
async function bigArchive(count: number) {
  const png = await makeImage('png', 16, 12);
  const entries = [{ name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' }];
  for (let i = 0; i < count; i++) {
    const split = i % 10 === 0 ? 'val' : 'train';
    const n = String(i).padStart(5, '0');
    entries.push(
      { name: `images/${split}/img_${n}.png`, data: png as unknown as string },
      { name: `labels/${split}/img_${n}.txt`, data: `${i % 2} 0.5 0.5 0.2 0.2\n` },
    );
  }
  return buildZip(entries);
}

/** tus through the proxy in `chunks` PATCHes; returns the instance that answered each one. */
async function tusUpload(u: User, datasetId: string, filename: string, bytes: Buffer, chunks: number) {
  const key = `users/${u.id}/datasets/${datasetId}/${filename}`;
  const tok = await via('/v1/uploads/token', { method: 'POST', headers: { cookie: u.cookie }, body: { path: key, bytes: bytes.length } });
  expect(tok.status, tok.body.toString()).toBe(200);
  const tus = { cookie: u.cookie, 'tus-resumable': '1.0.0' };
  const create = await via('/v1/uploads/tus', {
    method: 'POST',
    headers: { ...tus, 'upload-length': String(bytes.length), 'upload-metadata': `token ${b64(tok.json().data.token as string)},filename ${b64(filename)}` },
  });
  expect(create.status, create.body.toString()).toBe(201);
  const url = new URL(String(create.headers.location), PROXY).pathname;
  const size = Math.ceil(bytes.length / chunks);
  const served: string[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    const res = await via(url, {
      method: 'PATCH',
      headers: { ...tus, 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      body: bytes.subarray(offset, offset + size),
    });
    expect(res.status, `PATCH at ${offset} on ${upstreamOf(res)}: ${res.body.toString()}`).toBe(204);
    served.push(upstreamOf(res));
    offset = Number(res.headers['upload-offset']);
  }
  return { key, served };
}

async function newDataset(u: User, name: string) {
  const res = await via('/v1/datasets', { method: 'POST', headers: { cookie: u.cookie }, body: { meta: { name }, task: 'detect' } });
  expect(res.status, res.body.toString()).toBe(201);
  return res.json().data.id;
}
const datasetOf = async (u: User, id: string) =>
  (await via(`/v1/datasets/${id}`, { headers: { cookie: u.cookie } })).json().data as unknown as { status: string; stats: { images: number } | null };
const jobOf = async (datasetId: string) =>
  (await db.query(`SELECT status, attempts, locked_by, progress FROM "${SCHEMA}".jobs WHERE dedupe_key = $1`, [`dataset:${datasetId}`])).rows[0] as
    { status: string; attempts: number; locked_by: string | null; progress: { done?: number } | null } | undefined;
const instanceOfHolder = (lockedBy: string | null) => {
  const pid = Number(lockedBy?.split(':')[1]);
  return [inst.a, inst.b].find((i) => i.proc?.pid === pid) ?? null;
};
const duplicatesOf = async (datasetId: string) => {
  const r = await db.query(`SELECT count(*)::int AS n, count(DISTINCT entry_name)::int AS d FROM "${SCHEMA}".dataset_images WHERE dataset_id = $1`, [
    datasetId,
  ]);
  return { images: r.rows[0].n as number, duplicates: (r.rows[0].n as number) - (r.rows[0].d as number) };
};
const refusedIn = (i: Instance) =>
  fs
    .readFileSync(i.log, 'utf8')
    .split('\n')
    .filter((l) => l.includes('job write refused')).length;

// ---------------------------------------------------------------- the suite

describe('scale-out: two instances, PostgreSQL, s3rver, nginx', () => {
  let alice: User;
  let readyDataset: string;
  let archive: Buffer;

  beforeAll(async () => {
    // Never skipped: without nginx the suite fails, saying what to install (.ci/run installs it).
    if (!NGINX) throw new Error('nginx not found (/usr/sbin/nginx): apt-get install -y nginx');
    db = new pg.Client({ connectionString: PG_URL });
    await db.connect();
    await db.query(`CREATE SCHEMA "${SCHEMA}"`);
    s3 = await startS3rver({ port: PORTS.s3, bucket: 'sightline-scaleout' });
    // The server bundle of ADR 0036 (rebuilt only when its sources changed).
    const built = spawnSync(process.execPath, ['scripts/start.mjs', '--build-server'], { cwd: ROOT, stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`server build failed (exit ${built.status})`);
    // Migrations run once, under an advisory lock, whichever instance starts first.
    await Promise.all([startInstance(inst.a), startInstance(inst.b)]);
    startNginx();
    await until(async () => (await via('/alive')).status === 200, 20_000, 'nginx');
    archive = await bigArchive(Number(process.env.SCALEOUT_IMAGES ?? 12000));
    report('set-up (PostgreSQL schema, s3rver, 2 instances, nginx)', `${((Date.now() - started) / 1000).toFixed(1)} s`);
  }, 240_000);

  afterAll(async () => {
    for (const i of [inst.a, inst.b]) if (i.proc) process.kill(i.proc.pid!, 'SIGCONT');
    await Promise.all([stopInstance(inst.a), stopInstance(inst.b)]);
    if (nginx && nginx.exitCode === null) {
      const exited = new Promise((r) => nginx!.once('exit', r));
      nginx.kill('SIGQUIT');
      await exited;
    }
    await s3?.stop();
    await db?.query(`DROP SCHEMA IF EXISTS "${SCHEMA}" CASCADE`).catch(() => undefined);
    await db?.end();
    if (process.env.SCALEOUT_KEEP) console.log(`scale-out: logs kept in ${work}`);
    else fs.rmSync(work, { recursive: true, force: true });
    console.log(figures.join('\n'));
    console.log(`scale-out: suite minutes ${((Date.now() - started) / 60_000).toFixed(1)}`);
  });

  it('keeps a sign-in across instances', async () => {
    alice = await signUp();
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const me = await via('/v1/users/me', { headers: { cookie: alice.cookie } });
      expect(me.status).toBe(200);
      expect(me.json().data.id).toBe(alice.id);
      seen.add(upstreamOf(me));
    }
    expect(seen.size).toBe(2);
    report('sign-in kept across instances', `6/6 requests, ${seen.size} instances`);
  });

  it('takes a tus upload whose chunks alternate instances to Ready, its blobs in the bucket and served by both', async () => {
    const zip = fs.readFileSync(path.join(ROOT, '../shared/fixtures/models/shapes3.zip'));
    readyDataset = await newDataset(alice, 'Shapes');
    const { key, served } = await tusUpload(alice, readyDataset, 'shapes3.zip', zip, 6);
    expect(new Set(served).size).toBe(2);
    const processed = await via(`/v1/datasets/${readyDataset}/process`, { method: 'POST', headers: { cookie: alice.cookie } });
    expect(processed.status, processed.body.toString()).toBeLessThan(300);
    await until(async () => (await datasetOf(alice, readyDataset)).status === 'Ready', 60_000, 'dataset Ready');
    report('tus upload, chunks alternating instances, reaches Ready', `${served.length} PATCHes on ${new Set(served).size} instances`);

    expect(s3.keys()).toContain(key);
    expect(s3.keys().filter((k) => k.startsWith('uploads/tus/'))).toEqual([]);
    const images = (await via(`/v1/datasets/${readyDataset}/images?split=test&limit=3`, { headers: { cookie: alice.cookie } })).json().data as unknown as {
      results: Array<{ url: string }>;
    };
    const url = images.results[0]!.url;
    const fromA = await direct(inst.a, new URL(url, PROXY).pathname + new URL(url, PROXY).search);
    const fromB = await direct(inst.b, new URL(url, PROXY).pathname + new URL(url, PROXY).search);
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(fromA.body.equals(fromB.body)).toBe(true);
    report('blobs in the bucket, served by both instances', `archive in s3rver, no upload leftovers, image ${fromA.body.length} B from A and B`);
  });

  it('delivers a realtime event produced on B to a socket on A', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${PORTS.a}/v1/realtime`, { headers: { cookie: alice.cookie } });
    const messages: Array<{ type: string; event?: string; data?: { firstName?: string }; at: number }> = [];
    ws.on('message', (raw: Buffer) => messages.push({ ...JSON.parse(raw.toString('utf8')), at: Date.now() }));
    await until(async () => messages.some((m) => m.type === 'hello'), 10_000, 'hello');
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const name = `Realtime${i}`;
      const sent = Date.now();
      const res = await direct(inst.b, '/v1/users/me', { method: 'PATCH', headers: { cookie: alice.cookie }, body: { firstName: name } });
      expect(res.status).toBe(200);
      await until(async () => messages.some((m) => m.event === 'user.updated' && m.data?.firstName === name), 5000, 'event on A', 5);
      latencies.push(messages.find((m) => m.event === 'user.updated' && m.data?.firstName === name)!.at - sent);
    }
    ws.close();
    latencies.sort((x, y) => x - y);
    report('realtime event produced on B reaches a socket on A', `median ${latencies[2]} ms, max ${latencies[4]} ms (5 events)`);
  });

  it('records training metrics posted alternately to both instances', async () => {
    const key = await via('/v1/api-keys', { method: 'POST', headers: { cookie: alice.cookie }, body: { name: 'trainer' } });
    expect(key.status, key.body.toString()).toBe(201);
    const legacy = key.json().data.legacyKey as string;
    const model = await via('/v1/models', {
      method: 'POST',
      headers: { cookie: alice.cookie },
      body: { dataset: { id: readyDataset }, lineage: { architecture: { name: 'yolo11n' } }, config: { epochs: 6 } },
    });
    expect(model.status, model.body.toString()).toBe(201);
    const id = model.json().data.id;
    const headers = { 'x-api-key': legacy, 'content-type': 'application/json' };
    expect(
      (await direct(inst.a, `/v1/agent/heartbeat/models/${id}`, { method: 'POST', headers, body: '{"agent": "scale-out", "agentId": null}' })).status,
    ).toBe(200);
    for (let e = 0; e < 6; e++) {
      const body = JSON.stringify({
        metrics: { [e]: JSON.stringify({ 'train/box_loss': 1 / (e + 1), 'metrics/mAP50(B)': 0.1 * e, 'metrics/mAP50-95(B)': 0.05 * e }) },
        type: 'metrics',
      });
      const res = await direct(e % 2 ? inst.b : inst.a, `/v1/models/${id}`, { method: 'POST', headers, body });
      expect(res.status, res.body.toString()).toBe(200);
    }
    const rows = (await via(`/v1/models/${id}/metrics`, { headers: { cookie: alice.cookie } })).json().data as unknown as Array<{ epoch: number }>;
    expect(rows.map((r) => r.epoch)).toEqual([0, 1, 2, 3, 4, 5]);
    report('training metrics posted alternately to A and B', '6/6 epochs recorded in order');
  });

  it('refuses on B an API key revoked on A within 1 s', async () => {
    const key = await via('/v1/api-keys', { method: 'POST', headers: { cookie: alice.cookie }, body: { name: 'revoked' } });
    const { id, key: secret } = key.json().data as { id: string; key: string };
    expect((await direct(inst.b, '/v1/users/me', { headers: { 'x-api-key': secret } })).status).toBe(200); // cached on B
    const revoked = await direct(inst.a, `/v1/api-keys/${id}`, { method: 'DELETE', headers: { cookie: alice.cookie } });
    expect(revoked.status).toBe(200);
    const t0 = Date.now();
    await until(async () => (await direct(inst.b, '/v1/users/me', { headers: { 'x-api-key': secret } })).status === 401, 1000, 'revocation on B', 10);
    report('API key revoked on A refused on B', `${Date.now() - t0} ms (limit 1000)`);
  });

  it('throttles sign-ins per real client address, whatever X-Forwarded-For the client sends', async () => {
    const victim = await signUp('victim-pass-123');
    const statuses: number[] = [];
    for (let i = 0; i < 63; i++) {
      const res = await via('/v1/auth/signin', {
        method: 'POST',
        from: '127.0.0.2',
        headers: { 'x-forwarded-for': `10.${i}.0.1` },
        body: { email: `spray${i % 7}@example.com`, password: 'wrong-password' },
      });
      statuses.push(res.status);
    }
    const first429 = statuses.indexOf(429);
    expect(first429).toBeGreaterThan(0);
    expect(statuses.slice(first429).every((s) => s === 429)).toBe(true);
    const other = await via('/v1/auth/signin', { method: 'POST', from: '127.0.0.3', body: { email: victim.email, password: victim.password } });
    expect(other.status).toBe(200);
    report('throttle per real client IP (spoofed X-Forwarded-For ignored)', `429 from attempt ${first429 + 1} for 127.0.0.2; 127.0.0.3 signs in`);
  });

  /** Starts processing `archive` in a new dataset; resolves once a holder has reported progress. */
  async function processingDataset(name: string) {
    const id = await newDataset(alice, name);
    await tusUpload(alice, id, `${name}.zip`, archive, 3);
    expect((await via(`/v1/datasets/${id}/process`, { method: 'POST', headers: { cookie: alice.cookie } })).status).toBeLessThan(300);
    let holder: Instance | null = null;
    await until(
      async () => {
        const job = await jobOf(id);
        holder = job?.status === 'running' && (job.progress?.done ?? 0) > 0 ? instanceOfHolder(job.locked_by) : null;
        return holder !== null;
      },
      60_000,
      'processing to start',
      50,
    );
    return { id, holder: holder! as Instance };
  }

  it('finishes on the other instance the job of an instance killed with -9, with no duplicates', async () => {
    const { id, holder } = await processingDataset('killed');
    const survivor = other(holder);
    const killedAt = Date.now();
    await stopInstance(holder, 'SIGKILL');
    try {
      let takeover = 0;
      // Ready and the job done: on a quiet machine the holder may have written Ready just before the
      // kill, and then the job's row waits for its lease to lapse and the survivor to close it.
      await until(
        async () => {
          const job = await jobOf(id);
          if (!takeover && instanceOfHolder(job?.locked_by ?? null) === survivor) takeover = Date.now() - killedAt;
          return (await datasetOf(alice, id)).status === 'Ready' && job?.status === 'done';
        },
        120_000,
        'Ready and the job done after the kill',
        100,
      );
      const d = await datasetOf(alice, id);
      const { images, duplicates } = await duplicatesOf(id);
      expect(d.stats?.images).toBe(images);
      expect(duplicates).toBe(0);
      expect((await jobOf(id))?.status).toBe('done');
      report(
        'kill -9 of the holder: the other instance finishes the job',
        `takeover ${(takeover / 1000).toFixed(1)} s (lease ${LEASE_S} s), Ready after ${((Date.now() - killedAt) / 1000).toFixed(1)} s, ${images} images, duplicates ${duplicates}`,
      );
    } finally {
      // The next tests need both instances, whatever this one found.
      await startInstance(holder);
    }
  });

  it('refuses the writes of an instance stalled past its lease (SIGSTOP, then SIGCONT)', async () => {
    // On a quiet machine the holder may finish the whole archive between the poll that saw it
    // working and the SIGSTOP: then nothing is left to take over, and the test starts again.
    let id = '';
    let holder = null as unknown as Instance;
    let before = 0;
    let stoppedAt = 0;
    for (let attempt = 1; ; attempt++) {
      ({ id, holder } = await processingDataset(`stalled-${attempt}`));
      before = refusedIn(holder);
      process.kill(holder.proc!.pid!, 'SIGSTOP');
      stoppedAt = Date.now();
      if ((await jobOf(id))?.status !== 'done') break;
      process.kill(holder.proc!.pid!, 'SIGCONT');
      if (attempt === 3) throw new Error('the holder finished before every SIGSTOP: 3 attempts');
    }
    try {
      await until(async () => instanceOfHolder((await jobOf(id))?.locked_by ?? null) === other(holder), 60_000, 'takeover of the stalled job');
      const takeover = Date.now() - stoppedAt;
      await until(async () => (await datasetOf(alice, id)).status === 'Ready', 120_000, 'Ready on the other instance');
      report('SIGSTOP of the holder: the other instance takes over', `takeover ${(takeover / 1000).toFixed(1)} s`);
    } finally {
      process.kill(holder.proc!.pid!, 'SIGCONT');
    }
    const job = await jobOf(id);
    // The woken instance resumes its attempt: every write it tries is refused.
    await until(async () => refusedIn(holder) > before, 60_000, 'the stalled instance to try a write');
    await new Promise((r) => setTimeout(r, 2000));
    const after = await jobOf(id);
    expect(after).toMatchObject({ status: 'done', attempts: job!.attempts, locked_by: job!.locked_by });
    const { images, duplicates } = await duplicatesOf(id);
    expect((await datasetOf(alice, id)).stats?.images).toBe(images);
    expect(duplicates).toBe(0);
    report('stalled instance cannot complete the job it lost', `fenced writes refused ${refusedIn(holder) - before}, duplicates ${duplicates}`);
  });

  it('keeps an agent and an API client working while either instance dies', async () => {
    // The real agent CLI (apps/agent) against the proxy: register, heartbeats, long-poll claims.
    const created = await via('/v1/agents', { method: 'POST', headers: { cookie: alice.cookie }, body: { name: 'scale-out-gpu' } });
    expect(created.status, created.body.toString()).toBe(201);
    const token = (created.json().data as unknown as { token: string }).token;
    const agent = startAgent(PROXY, token);
    const online = async () =>
      ((await via('/v1/agents', { headers: { cookie: alice.cookie } })).json().data as unknown as Array<{ online: boolean; lastSeen?: string | null }>)[0];
    try {
      await until(async () => (await online())?.online === true, 60_000, 'the agent online');
      const key = await via('/v1/api-keys', { method: 'POST', headers: { cookie: alice.cookie }, body: { name: 'client' } });
      const secret = key.json().data.key as string;
      let ok = 0;
      let failed = 0;
      const failures: Record<string, number> = {};
      for (const victim of [inst.a, inst.b]) {
        const killing = (async () => {
          await new Promise((r) => setTimeout(r, 300));
          await stopInstance(victim, 'SIGKILL');
        })();
        const end = Date.now() + 2500;
        while (Date.now() < end) {
          const res = await via('/v1/users/me', { headers: { 'x-api-key': secret } }).catch(() => null);
          if (res?.status === 200) ok += 1;
          else {
            failed += 1;
            const why = res ? `${res.status} ${res.body.toString().slice(0, 120)}` : 'no answer';
            failures[why] = (failures[why] ?? 0) + 1;
          }
        }
        await killing;
        expect((await online())?.online).toBe(true);
        await startInstance(victim);
        // Back in nginx's rotation (a failed server rests fail_timeout, 5 s) before the other one dies:
        // one instance at a time is what the deployment promises to survive.
        await until(async () => upstreamOf(await via('/alive')) === `127.0.0.1:${victim.port}`, 30_000, `instance ${victim.name} back behind the proxy`);
      }
      expect(failed, JSON.stringify(failures)).toBe(0);
      expect(agent.child.exitCode).toBeNull();
      // Still heard from after both deaths: its heartbeats reached whichever instance was up.
      const heardAt = Date.now();
      await until(async () => (await online())?.online === true, 10_000, 'the agent online after both deaths');
      report(
        'agent and API client keep working while A, then B, dies (kill -9)',
        `agent online throughout, ${ok} client requests answered, ${failed} failed (${Date.now() - heardAt} ms to confirm)`,
      );
    } finally {
      await agent.stop();
    }
  });
});
