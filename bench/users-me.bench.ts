/**
 * Throughput of an authenticated read: GET /v1/users/me with a session cookie. Every request
 * resolves the session and loads the user, so this measures the per-request auth + database path
 * of the real server (built by buildApp exactly as main.ts does), on the embedded default (and PGlite
 * when asked) and on PostgreSQL, next to a bare Fastify route measured in the same run.
 *
 * Prints ONE JSON line on stdout (run-all.ts collects it); progress and server warnings go to stderr.
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_DURATION_S (10),
 * BENCH_WARMUP_S (2), BENCH_DBS (embedded,postgres; pglite too), BENCH_LOG_LEVEL (warn).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/platform/db/client.js';

/** `embedded`: the default engine without DATABASE_URL (PostgreSQL binaries, ADR 0010); `pglite`: EMBEDDED_DB=pglite. */
type DbKind = 'embedded' | 'pglite' | 'postgres';

interface Measured {
  db: DbKind;
  requestsPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  errors: number;
  non2xx: number;
  totalRequests: number;
  durationS: number;
}
interface Failed {
  db: DbKind;
  error: string;
}

const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DURATION_S = positive(process.env.BENCH_DURATION_S, 10);
const WARMUP_S = positive(process.env.BENCH_WARMUP_S, 2);
const CONNECTIONS = 10;
/**
 * The load generator runs in its own thread (autocannon workers), as real clients are other processes:
 * in the server's thread it would take half of the event loop being measured, for both routes alike.
 */
const WORKERS = 1;
const DBS = (process.env.BENCH_DBS ?? 'embedded,postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is DbKind => s === 'embedded' || s === 'pglite' || s === 'postgres');

function positive(raw: string | undefined, fallback: number) {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : fallback;
}

const log = (msg: string) => process.stderr.write(`[users-me] ${msg}\n`);

/**
 * Cleanups run in reverse on success, failure and SIGTERM (run-all's timeout), so a killed run
 * still closes the server and drops its PostgreSQL schema instead of leaving bench_* behind.
 */
const cleanups: Array<() => Promise<void>> = [];
async function runCleanups() {
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    await fn().catch((err: unknown) => log(`cleanup failed: ${(err as Error).message}`));
  }
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    log(`${signal}: cleaning up`);
    void runCleanups().finally(() => process.exit(code));
  });
}

async function startServer(db: DbKind) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-bench-'));
  cleanups.push(async () => fs.rmSync(dataDir, { recursive: true, force: true }));
  let schema: string | undefined;
  if (db === 'postgres') {
    schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
    const name = schema;
    // Registered before the server opens (and creates) it, so a failed migration is cleaned too.
    cleanups.push(async () => {
      const admin = await openDatabase({ url: PG_URL, pgliteDir: null, poolSize: 1 });
      try {
        await admin.exec(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      } finally {
        await admin.close();
      }
    });
  }
  const config = loadConfig({
    // Production mode, as deployed; it requires a session secret.
    NODE_ENV: 'production',
    SESSION_SECRET: crypto.randomBytes(32).toString('hex'),
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    DATABASE_URL: db === 'postgres' ? PG_URL : undefined,
    DATABASE_SCHEMA: schema,
    EMBEDDED_DB: db === 'pglite' ? 'pglite' : 'postgres',
    WEB_DIST: path.join(dataDir, 'no-web'),
    // Background jobs would compete for the same database and blur what is measured.
    JOBS_ENABLED: 'false',
  });
  // Per-request info logs are off (we measure the API, not log I/O) and whatever is logged goes to
  // stderr: stdout carries only the result line.
  const app = await buildApp({ config, logger: { level: process.env.BENCH_LOG_LEVEL ?? 'warn', stream: process.stderr } });
  cleanups.push(() => app.close());
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return `http://127.0.0.1:${port}`;
}

async function signUp(base: string): Promise<string> {
  const res = await fetch(`${base}/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: 'bench-password-1', username: 'bench_user', firstName: 'Bench' }),
  });
  if (res.status !== 201) throw new Error(`signup answered ${res.status}: ${await res.text()}`);
  const session = res.headers.getSetCookie().find((c) => c.startsWith('sl_session='));
  if (!session) throw new Error('signup set no session cookie (is mail verification on?)');
  const cookie = session.split(';')[0]!;
  // A bench of 401s would look fast and mean nothing: prove the cookie authenticates first.
  const me = await fetch(`${base}/v1/users/me`, { headers: { cookie } });
  if (me.status !== 200) throw new Error(`GET /v1/users/me with the session answered ${me.status}`);
  return cookie;
}

async function measure(db: DbKind): Promise<Measured> {
  const base = await startServer(db);
  const cookie = await signUp(base);
  const opts = { url: `${base}/v1/users/me`, connections: CONNECTIONS, workers: WORKERS, headers: { cookie } };
  log(`${db}: warm-up ${WARMUP_S}s`);
  await autocannon({ ...opts, duration: WARMUP_S });
  log(`${db}: measuring ${DURATION_S}s with ${CONNECTIONS} connections`);
  const r = await autocannon({ ...opts, duration: DURATION_S });
  await runCleanups();
  return {
    db,
    requestsPerSec: Math.round(r.requests.average),
    latencyP50Ms: r.latency.p50,
    latencyP99Ms: r.latency.p99,
    errors: r.errors,
    non2xx: r.non2xx,
    totalRequests: r.requests.total,
    durationS: r.duration,
  };
}

/** The same load on a bare Fastify route (no auth, no database, no logging), measured in this run: the ceiling. */
async function measureBare(): Promise<number> {
  const bare = Fastify({ logger: false });
  bare.get('/v1/users/me', async () => ({ data: { id: 'u1', username: 'bench_user' } }));
  await bare.listen({ host: '127.0.0.1', port: 0 });
  const { port } = bare.server.address() as AddressInfo;
  const opts = { url: `http://127.0.0.1:${port}/v1/users/me`, connections: CONNECTIONS, workers: WORKERS };
  await autocannon({ ...opts, duration: WARMUP_S });
  const r = await autocannon({ ...opts, duration: DURATION_S });
  await bare.close();
  return Math.round(r.requests.average);
}

const results: Array<Measured | Failed> = [];
log(`bare Fastify route: measuring ${DURATION_S}s with ${CONNECTIONS} connections`);
const bareRps = await measureBare();
for (const db of DBS) {
  try {
    results.push(await measure(db));
  } catch (err) {
    log(`${db} failed: ${(err as Error).stack ?? String(err)}`);
    results.push({ db, error: (err as Error).message });
    await runCleanups();
  }
}
// Targets: ≥ 10,000 req/s on PostgreSQL, and ≥ 0.2× the bare route of the same run.
const pgRun = results.find((r): r is Measured => r.db === 'postgres' && !('error' in r));
const targets = pgRun
  ? {
      postgresRps: { value: pgRun.requestsPerSec, limit: 10_000, ok: pgRun.requestsPerSec >= 10_000 },
      postgresVsBare: { ratio: Math.round((pgRun.requestsPerSec / bareRps) * 1000) / 1000, limit: 0.2, ok: pgRun.requestsPerSec / bareRps >= 0.2 },
    }
  : null;
for (const [name, v] of Object.entries(targets ?? {}))
  log(`${v.ok ? 'PASS' : 'FAIL'} ${name}: ${'ratio' in v ? `${v.ratio}× (≥ ${v.limit}×)` : `${v.value} req/s (≥ ${v.limit})`}`);
process.stdout.write(
  `${JSON.stringify({ bench: 'users-me', load: os.loadavg().map((x) => Math.round(x * 100) / 100), bareFastifyRps: bareRps, results, targets })}\n`,
);
// Any failed database, error or non-2xx makes the run fail, so run-all reports it as such.
const bad = results.some((r) => 'error' in r || r.errors > 0 || r.non2xx > 0);
process.exitCode = bad ? 1 : 0;
