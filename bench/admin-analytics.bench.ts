/**
 * The admin area's two hot queries at instance scale (ADR 0015): the events-over-time chart
 * (GET /v1/admin/analytics/events) over 1,000,000 analytics events, and the admin user search
 * (GET /v1/admin/users/search) over 100,000 users. Data is generated in SQL with generate_series
 * in a private schema of the real PostgreSQL (and, with BENCH_DBS=postgres,pglite, in PGlite),
 * migrated exactly as the server migrates; the service functions the routes call are timed.
 *
 * Target: p50 < 200 ms for each case. Prints ONE JSON line on stdout (run-all.ts collects it);
 * progress and PASS/FAIL lines on stderr.
 * Env: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), BENCH_DBS (postgres),
 * BENCH_EVENTS (1000000), BENCH_USERS (100000), BENCH_RUNS (25).
 */
import crypto from 'node:crypto';
import type { AppContext } from '../apps/server/src/context.js';
import { openDatabase, type Database } from '../apps/server/src/platform/db/client.js';
import { migrate } from '../apps/server/src/platform/db/migrate.js';
import { searchUsers } from '../apps/server/src/modules/admin/admin.service.js';
import { eventsOverTime } from '../apps/server/src/modules/analytics/analytics.service.js';

type DbKind = 'postgres' | 'pglite';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const EVENTS = positive(process.env.BENCH_EVENTS, 1_000_000);
const USERS = positive(process.env.BENCH_USERS, 100_000);
const RUNS = positive(process.env.BENCH_RUNS, 25);
const TARGET_MS = 200;
const DBS = (process.env.BENCH_DBS ?? 'postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is DbKind => s === 'postgres' || s === 'pglite');

function positive(raw: string | undefined, fallback: number) {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}
const log = (msg: string) => process.stderr.write(`[admin-analytics] ${msg}\n`);
const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

const cleanups: Array<() => Promise<void>> = [];
async function runCleanups() {
  while (cleanups.length) await cleanups.pop()!().catch((err: unknown) => log(`cleanup failed: ${(err as Error).message}`));
}
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => void runCleanups().finally(() => process.exit(code)));
}

const NOW = new Date('2026-11-25T12:00:00Z');
const NAMES = [
  'sign_up',
  'sign_in',
  'sign_out',
  'update_profile',
  'update_password',
  'update_plan',
  'create_dataset',
  'update_dataset',
  'delete_dataset',
  'share_dataset',
  'create_project',
  'update_project',
  'delete_project',
  'share_project',
  'create_model',
  'update_model',
  'delete_model',
  'share_model',
  'export_model',
  'infer_model',
  'empty_trash',
];

async function open(kind: DbKind): Promise<Database> {
  if (kind === 'pglite') return openDatabase({ url: null, pgliteDir: null });
  const schema = `bench_${crypto.randomBytes(6).toString('hex')}`;
  cleanups.push(async () => {
    const admin = await openDatabase({ url: PG_URL, pgliteDir: null, poolSize: 1 });
    try {
      await admin.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    } finally {
      await admin.close();
    }
  });
  return openDatabase({ url: PG_URL, pgliteDir: null, schema, poolSize: 2 });
}

/** 100,000 users (names from a fixed alphabet so prefixes have realistic fan-out) and 1,000,000 events over a year. */
async function seed(database: Database) {
  const t0 = performance.now();
  await database.exec(`
    INSERT INTO users (id, email, username, first_name, image, created_at, updated_at, last_login_at)
    SELECT 'u' || lpad(i::text, 7, '0'),
           (ARRAY['alice','bob','carol','dave','erin','frank','grace','heidi','ivan','judy'])[1 + i % 10] || i || '@example' || (i % 50) || '.com',
           'user' || i,
           (ARRAY['Alice','Bob','Carol','Dave','Erin','Frank','Grace','Heidi','Ivan','Judy'])[1 + (i / 7) % 10],
           '/robots/1.png',
           timestamptz '${NOW.toISOString()}' - (i || ' minutes')::interval,
           timestamptz '${NOW.toISOString()}',
           CASE WHEN i % 3 = 0 THEN NULL ELSE timestamptz '${NOW.toISOString()}' - ((i % 9000) || ' minutes')::interval END
    FROM generate_series(1, ${USERS}) AS i`);
  await database.exec(`
    INSERT INTO analytics_events (id, user_id, name, properties, created_at)
    SELECT 'e' || i,
           'u' || lpad((1 + (i * 7919) % ${USERS})::text, 7, '0'),
           (ARRAY[${NAMES.map((n) => `'${n}'`).join(',')}])[1 + (i * 31) % ${NAMES.length}],
           CASE WHEN (i * 31) % ${NAMES.length} = ${NAMES.indexOf('infer_model')} THEN jsonb_build_object('modelId', 'm' || i % 500) ELSE '{}'::jsonb END,
           timestamptz '${NOW.toISOString()}' - ((i::bigint * 31536) / 1000 || ' seconds')::interval
    FROM generate_series(1::bigint, ${EVENTS}) AS i`);
  // Autovacuum would do this on a live instance; the index-only scans need the visibility map.
  await database.exec('VACUUM ANALYZE users');
  await database.exec('VACUUM ANALYZE analytics_events');
  log(`seeded ${USERS} users and ${EVENTS} events in ${round((performance.now() - t0) / 1000)} s`);
}

async function timeIt(runs: number, fn: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 3; i++) await fn(i); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn(i);
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50Ms: round(ms[Math.floor(ms.length / 2)]!), p95Ms: round(ms[Math.min(ms.length - 1, Math.floor(ms.length * 0.95))]!), runs };
}

async function measure(kind: DbKind) {
  const database = await open(kind);
  cleanups.push(() => database.close());
  await migrate(database);
  await seed(database);
  const ctx = { db: database.db, clock: { now: () => NOW } } as unknown as AppContext;
  const days = (n: number) => new Date(NOW.getTime() - n * 86_400_000);

  // The admin page's default chart: 90 days by day (~250,000 events), every name. The first call
  // aggregates the closed days into analytics_rollup once (reported as cold); later calls read the
  // rollup and count only today live.
  const t0 = performance.now();
  await eventsOverTime(ctx, days(90), NOW, 'day');
  const chart90ColdMs = round(performance.now() - t0);
  const chart90 = await timeIt(RUNS, () => eventsOverTime(ctx, days(90), NOW, 'day'));
  // The year by week (all 1,000,000 events): reported, not a target.
  const t1 = performance.now();
  await eventsOverTime(ctx, days(366), NOW, 'week');
  const chartYearColdMs = round(performance.now() - t1);
  const chartYear = await timeIt(Math.max(5, Math.floor(RUNS / 3)), () => eventsOverTime(ctx, days(366), NOW, 'week'));
  const series = await eventsOverTime(ctx, days(366), NOW, 'week');
  const counted = series.series.reduce((s, x) => s + x.counts.reduce((a, b) => a + b, 0), 0);
  if (counted !== EVENTS) throw new Error(`the year chart counted ${counted} events, expected ${EVENTS}`);

  // User search: prefixes of email, username and first name, then a keyset page 2; the unfiltered list sorted by email.
  const queries = ['alice12', 'user4242', 'grace', 'bob9', 'user1', 'heidi777', 'ivan'];
  const search = await timeIt(RUNS, async (i) => {
    const page = await searchUsers(ctx, { q: queries[i % queries.length], sort: 'created', dir: 'desc', limit: 25 });
    if (page.users.length === 0) throw new Error(`search ${queries[i % queries.length]} found nobody`);
    if (page.next) await searchUsers(ctx, { q: queries[i % queries.length], sort: 'created', dir: 'desc', limit: 25, cursor: page.next });
  });
  const list = await timeIt(RUNS, async () => {
    const page = await searchUsers(ctx, { sort: 'email', dir: 'asc', limit: 25 });
    await searchUsers(ctx, { sort: 'email', dir: 'asc', limit: 25, cursor: page.next ?? undefined });
  });
  const targets = {
    eventsOverTime90d: { p50Ms: chart90.p50Ms, limitMs: TARGET_MS, ratio: round(chart90.p50Ms / TARGET_MS, 2), ok: chart90.p50Ms < TARGET_MS },
    userSearch: { p50Ms: search.p50Ms, limitMs: TARGET_MS, ratio: round(search.p50Ms / TARGET_MS, 2), ok: search.p50Ms < TARGET_MS },
    userListSortedByEmail: { p50Ms: list.p50Ms, limitMs: TARGET_MS, ratio: round(list.p50Ms / TARGET_MS, 2), ok: list.p50Ms < TARGET_MS },
  };
  for (const [name, v] of Object.entries(targets))
    log(`${v.ok ? 'PASS' : 'FAIL'} ${kind} ${name}: p50 ${v.p50Ms} ms = ${v.ratio}× of the ${v.limitMs} ms target`);
  log(`info ${kind} eventsOverTime90d first call (fills the rollup): ${chart90ColdMs} ms`);
  log(`info ${kind} eventsOverTime365dWeekly: p50 ${chartYear.p50Ms} ms, first call ${chartYearColdMs} ms (all ${EVENTS} events)`);
  return { db: kind, chart90: { ...chart90, coldMs: chart90ColdMs }, chartYear: { ...chartYear, coldMs: chartYearColdMs }, search, list, targets };
}

const results: unknown[] = [];
let failed = false;
try {
  for (const kind of DBS) {
    log(`measuring on ${kind}`);
    const r = await measure(kind);
    results.push(r);
    if (Object.values(r.targets).some((v) => !v.ok)) failed = true;
  }
} catch (err) {
  log(`error: ${(err as Error).stack ?? String(err)}`);
  failed = true;
} finally {
  await runCleanups();
}
console.log(JSON.stringify({ bench: 'admin-analytics', events: EVENTS, users: USERS, target: `p50 < ${TARGET_MS} ms`, results }));
process.exitCode = failed ? 1 : 0;
