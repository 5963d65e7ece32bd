/**
 * Cost that does not grow with size (ADR 0042): the last page of a 1,000,000-item list
 * costs what the first does. One user's trash of 1,000,000 datasets is generated straight into the
 * database (generate_series, a private schema of the real PostgreSQL, or PGlite with
 * BENCH_DBS=pglite), then the trash service's page (`GET /v1/trash`'s handler: keyset pages on the
 * indexes of migration 0032) is timed for the first page and for the last, whose cursor is the
 * (deleted, id) of the row before it. For the record it also times the same last page read by
 * OFFSET, what keyset pages replace, and the first page with the whole trash's count and bytes (one
 * row of trash_totals, migration 0036, answered with the first page only). The admin's account list
 * (`GET /v1/admin/users`) gets its own line: BENCH_ROWS users, first page against last.
 *
 * Target: last page ≤ 1.5× the first (median of BENCH_RUNS). Prints ONE JSON line with the ratio.
 * The dataset image list (`GET /v1/datasets/:id/images`) gets its own line: BENCH_ROWS images of one
 * dataset's working state (rows of `dataset_images` with `rev_to` NULL, as processing writes them, and
 * the dataset's stored statistics, which answer the total), first page against last, through the
 * service. Env: BENCH_ROWS (1,000,000), BENCH_RUNS (15), BENCH_DBS, BENCH_LISTS.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../apps/server/src/context.js';
import { openDatabase, type Database } from '../apps/server/src/platform/db/client.js';
import { migrate } from '../apps/server/src/platform/db/migrate.js';
import { itemsAfter, trashPage } from '../apps/server/src/modules/trash/trash.service.js';
import { listUsers } from '../apps/server/src/modules/admin/admin.service.js';
import { listImages } from '../apps/server/src/modules/datasets/datasets.service.js';
import { datasetsRepository } from '../apps/server/src/modules/datasets/datasets.repository.js';

type DbKind = 'postgres' | 'pglite';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ROWS = positive(process.env.BENCH_ROWS, 1_000_000);
const RUNS = positive(process.env.BENCH_RUNS, 15);
const LIMIT = 50;
const TARGET = 1.5;
const DBS = (process.env.BENCH_DBS ?? 'postgres')
  .split(',')
  .map((s) => s.trim())
  .filter((s): s is DbKind => s === 'postgres' || s === 'pglite');
/** Which lines to run (BENCH_LISTS, comma-separated; all by default): trash, adminUsers, datasetImages. */
const LISTS = (process.env.BENCH_LISTS ?? 'trash,adminUsers,datasetImages').split(',').map((s) => s.trim());

function positive(raw: string | undefined, fallback: number) {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? Math.floor(n) : fallback;
}
const log = (msg: string) => process.stderr.write(`[keyset-pages] ${msg}\n`);
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

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

const NOW = new Date('2026-11-25T12:00:00Z');

async function timeIt(runs: number, fn: () => Promise<unknown>) {
  await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await fn();
    times.push(performance.now() - t);
  }
  return median(times);
}

/** A migrated database of this kind with the bench's user, who owns the trash and the dataset. */
async function setup(kind: DbKind) {
  const database = await open(kind);
  cleanups.push(() => database.close());
  await migrate(database);
  await database.exec(`
    INSERT INTO users (id, email, username, first_name, image, created_at, updated_at)
    VALUES ('bench-user', 'bench@example.com', 'bench', 'Bench', '/robots/1.png', now(), now())`);
  return database;
}

/** Medians of several calls timed in turn (one of each per round), after one warm-up round. */
async function timeInTurn(runs: number, fns: Array<() => Promise<unknown>>) {
  for (const fn of fns) await fn();
  const times = fns.map(() => [] as number[]);
  for (let i = 0; i < runs; i++)
    for (const [k, fn] of fns.entries()) {
      const t = performance.now();
      await fn();
      times[k]!.push(performance.now() - t);
    }
  return times.map(median);
}

async function benchTrash(kind: DbKind, database: Database) {
  const t0 = performance.now();
  // Deletions a second apart, and groups of 4 at the same instant (the id breaks those ties). The
  // trash totals' insert trigger (migration 0036) is off for the bulk insert, and the totals are then
  // filled as the migration's backfill does: one row, not a million updates of it.
  await database.exec('ALTER TABLE datasets DISABLE TRIGGER datasets_trash_totals_insert');
  await database.exec(`
    INSERT INTO datasets (id, user_id, slug, name, bytes, deleted_at, created_at, updated_at)
    SELECT 'd' || lpad(i::text, 8, '0'), 'bench-user', 'd' || i, 'dataset ' || i, 1000 + i % 5000,
           timestamptz '${NOW.toISOString()}' - ((i / 4) || ' seconds')::interval,
           timestamptz '${NOW.toISOString()}' - interval '40 days', timestamptz '${NOW.toISOString()}'
    FROM generate_series(1, ${ROWS}) AS i`);
  await database.exec('ALTER TABLE datasets ENABLE TRIGGER datasets_trash_totals_insert');
  await database.exec(`
    INSERT INTO trash_totals (user_id, count, bytes)
    SELECT user_id, count(*), sum(bytes) FROM datasets WHERE deleted_at IS NOT NULL GROUP BY user_id`);
  await database.exec('ANALYZE datasets');
  log(`${kind}: ${ROWS} trashed datasets in ${round((performance.now() - t0) / 1000, 1)} s`);
  const ctx = { db: database.db, clock: { now: () => NOW } } as unknown as AppContext;

  const first = await trashPage(ctx, 'bench-user', { limit: LIMIT });
  if (first.count !== ROWS || first.items.length !== LIMIT || !first.nextCursor) throw new Error(`unexpected first page: ${first.count} items counted`);
  // The last page starts after the row that precedes it in (deleted_at DESC, id DESC) order; its
  // cursor is that row's (deleted, id), spelled as the server spells cursors (base64url of `iso|id`).
  const [before] = await database.query<{ id: string; deleted_at: Date | string }>(
    `SELECT id, deleted_at FROM datasets WHERE user_id = 'bench-user' AND deleted_at IS NOT NULL ORDER BY deleted_at DESC, id DESC OFFSET ${ROWS - LIMIT - 1} LIMIT 1`,
  );
  const cursor = Buffer.from(`${new Date(before!.deleted_at).toISOString()}|${before!.id}`).toString('base64url');
  const last = await trashPage(ctx, 'bench-user', { limit: LIMIT, cursor });
  if (last.items.length !== LIMIT || last.nextCursor !== null) throw new Error(`unexpected last page: ${last.items.length} items, next ${last.nextCursor}`);

  // The pages' own reads (keyset, `limit + 1` rows): what grows with depth if anything does.
  const after = { deleted: new Date(before!.deleted_at), id: before!.id };
  const firstMs = await timeIt(RUNS, () => itemsAfter(ctx, 'bench-user', null, LIMIT + 1));
  const lastMs = await timeIt(RUNS, () => itemsAfter(ctx, 'bench-user', after, LIMIT + 1));
  // The first page as the API answers it also carries the whole trash's count and bytes: one row of
  // trash_totals (migration 0036), so it should cost what the page does.
  const firstWithTotalsMs = await timeIt(Math.max(3, Math.floor(RUNS / 3)), () => trashPage(ctx, 'bench-user', { limit: LIMIT }));
  const offsetMs = await timeIt(Math.max(3, Math.floor(RUNS / 3)), () =>
    database.query(
      `SELECT * FROM datasets WHERE user_id = 'bench-user' AND deleted_at IS NOT NULL ORDER BY deleted_at DESC, id DESC OFFSET ${ROWS - LIMIT} LIMIT ${LIMIT + 1}`,
    ),
  );
  log(
    `${kind}: first page ${round(firstMs)} ms, last page ${round(lastMs)} ms (by offset: ${round(offsetMs)} ms); first page with the totals ${round(firstWithTotalsMs)} ms`,
  );
  return {
    rows: ROWS,
    firstPageMs: round(firstMs),
    lastPageMs: round(lastMs),
    lastOverFirst: round(lastMs / firstMs),
    lastPageByOffsetMs: round(offsetMs),
    firstPageWithTotalsMs: round(firstWithTotalsMs),
  };
}

/**
 * The admin's account list (`GET /v1/admin/users`, ADR 0042): BENCH_ROWS users, created in groups of
 * 4 in the same microsecond, then the first page and the last (whose cursor names the user before it).
 */
async function benchAdminUsers(kind: DbKind, database: Database) {
  const t0 = performance.now();
  await database.exec(`
    INSERT INTO users (id, email, username, first_name, image, created_at, updated_at)
    SELECT 'u' || lpad(i::text, 8, '0'), 'u' || i || '@bench.test', 'u' || i, 'User', '/robots/1.png',
           timestamptz '${NOW.toISOString()}' - ((i / 4) || ' seconds')::interval, timestamptz '${NOW.toISOString()}'
    FROM generate_series(1, ${ROWS}) AS i`);
  await database.exec('ANALYZE users');
  log(`${kind}: ${ROWS} users in ${round((performance.now() - t0) / 1000, 1)} s`);
  const ctx = { db: database.db, clock: { now: () => NOW } } as unknown as AppContext;
  const total = ROWS + 1; // and the trash's bench user
  const [before] = await database.query<{ id: string }>(`SELECT id FROM users ORDER BY created_at DESC, id DESC OFFSET ${total - LIMIT - 1} LIMIT 1`);
  const cursor = Buffer.from(JSON.stringify([before!.id])).toString('base64url');
  const last = await listUsers(ctx, { cursor, limit: LIMIT });
  if (last.items.length !== LIMIT || last.nextCursor !== null)
    throw new Error(`unexpected last users page: ${last.items.length} users, next ${last.nextCursor}`);
  const firstMs = await timeIt(RUNS, () => listUsers(ctx, { limit: LIMIT }));
  const lastMs = await timeIt(RUNS, () => listUsers(ctx, { cursor, limit: LIMIT }));
  log(`${kind}: admin users first page ${round(firstMs)} ms, last page ${round(lastMs)} ms`);
  return { rows: total, firstPageMs: round(firstMs), lastPageMs: round(lastMs), lastOverFirst: round(lastMs / firstMs) };
}

/**
 * The dataset image list (`GET /v1/datasets/:id/images`, ADR 0042): BENCH_ROWS images of one dataset's
 * working state (ADR 0037: `dataset_images` rows with `rev_to` NULL), 80/10/10 over train/val/test,
 * and the dataset Ready with its statistics (what processing stores; they answer the page's total).
 * The service's page (access check, keyset read on `dataset_images_browse_idx`, signed links) is timed
 * for the first page and the last, whose cursor is the (split, name, image id) of the image before it.
 */
async function benchDatasetImages(kind: DbKind, database: Database) {
  const t0 = performance.now();
  const splitOf = (n: number) => Math.round(n);
  const counts = { train: splitOf(ROWS * 0.8), val: splitOf(ROWS * 0.1), test: 0 };
  counts.test = ROWS - counts.train - counts.val;
  const split = (n: number) => (n ? { instance_stats: { total: n, per_class: [n] }, image_stats: { total: n, unlabelled: 0, per_class: [n] } } : null);
  const stats = {
    summary: { classes: ['thing'], classCount: 1, images: ROWS, ...counts },
    hub: { nc: 1, names: ['thing'], train: split(counts.train), val: split(counts.val), test: split(counts.test) },
  };
  await database.exec(`
    INSERT INTO datasets (id, user_id, slug, name, status, task, bytes, stats, classes, seq, processed_at, created_at, updated_at)
    VALUES ('bench-images', 'bench-user', 'bench-images', 'bench images', 'Ready', 'detect', 0,
            '${JSON.stringify(stats)}'::jsonb, '["thing"]'::jsonb, 1, now(), now(), now())`);
  // As processing writes them: one working row per image (rev_from 1, rev_to NULL), its stable image id
  // its row id, labels as YOLO rows, bytes a range of the archive.
  await database.exec(`
    INSERT INTO dataset_images (id, dataset_id, split, name, entry_name, width, height, format, labels, source, image_id, rev_from, label_rev)
    SELECT 'i' || lpad(g::text, 8, '0'), 'bench-images',
           CASE WHEN g <= ${counts.train} THEN 'train' WHEN g <= ${counts.train + counts.val} THEN 'val' ELSE 'test' END,
           'img' || lpad(g::text, 8, '0') || '.jpg', 'images/img' || lpad(g::text, 8, '0') || '.jpg', 640, 480, 'jpeg',
           '[[0, 0.5, 0.5, 0.2, 0.1]]'::jsonb,
           '{"dataOffset":0,"compressedSize":1,"uncompressedSize":1,"compressionMethod":0,"format":"jpeg"}'::jsonb,
           'i' || lpad(g::text, 8, '0'), 1, 1
    FROM generate_series(1, ${ROWS}) AS g`);
  await database.exec('ANALYZE dataset_images');
  log(`${kind}: ${ROWS} dataset images in ${round((performance.now() - t0) / 1000, 1)} s`);
  const ctx = { db: database.db, clock: { now: () => NOW }, secret: 'bench-secret' } as unknown as AppContext;
  const [before] = await database.query<{ split: string; name: string; image_id: string }>(
    `SELECT split, name, image_id FROM dataset_images WHERE dataset_id = 'bench-images' AND rev_to IS NULL ORDER BY split, name, image_id OFFSET ${ROWS - LIMIT - 1} LIMIT 1`,
  );
  // The cursor as the server spells it (base64url of the JSON [split, name, image id]).
  const cursor = Buffer.from(JSON.stringify([before!.split, before!.name, before!.image_id])).toString('base64url');
  const first = await listImages(ctx, 'bench-user', 'bench-images', { limit: LIMIT });
  if (first.total !== ROWS || first.results.length !== LIMIT || !first.nextCursor) throw new Error(`unexpected first images page: total ${first.total}`);
  const last = await listImages(ctx, 'bench-user', 'bench-images', { limit: LIMIT, cursor });
  if (last.total !== ROWS || last.results.length !== LIMIT || last.nextCursor !== null)
    throw new Error(`unexpected last images page: ${last.results.length} images, next ${last.nextCursor}`);
  const plan = async (after: string) =>
    (
      await database.query<Record<string, string>>(
        `EXPLAIN SELECT * FROM dataset_images WHERE dataset_id = 'bench-images' AND rev_to IS NULL ${after} ORDER BY split, name, image_id LIMIT ${LIMIT + 1}`,
      )
    )
      .map((r) => Object.values(r)[0])
      .join(' / ');
  log(`${kind}: plan of the first page: ${await plan('')}`);
  log(`${kind}: plan of the last page: ${await plan(`AND (split, name, image_id) > ('${before!.split}', '${before!.name}', '${before!.image_id}')`)}`);
  // First and last in turn, so a burst of load on the shared machine falls on both alike.
  const [firstMs, lastMs] = await timeInTurn(RUNS, [
    () => listImages(ctx, 'bench-user', 'bench-images', { limit: LIMIT }),
    () => listImages(ctx, 'bench-user', 'bench-images', { limit: LIMIT, cursor }),
  ]);
  // For the record: the same last page by the deprecated offset (what the cursor replaces).
  const offsetMs = await timeIt(Math.max(3, Math.floor(RUNS / 3)), () =>
    datasetsRepository.images(database.db, 'bench-images', { offset: ROWS - LIMIT, limit: LIMIT + 1 }),
  );
  log(`${kind}: dataset images first page ${round(firstMs)} ms, last page ${round(lastMs)} ms (by offset: ${round(offsetMs)} ms)`);
  return { rows: ROWS, firstPageMs: round(firstMs), lastPageMs: round(lastMs), lastOverFirst: round(lastMs / firstMs), lastPageByOffsetMs: round(offsetMs) };
}

async function main() {
  const lines = { trash: {} as Record<string, unknown>, adminUsers: {} as Record<string, unknown>, datasetImages: {} as Record<string, unknown> };
  let pass = true;
  try {
    for (const kind of DBS) {
      const database = await setup(kind);
      for (const [name, run] of [
        ['trash', benchTrash],
        ['adminUsers', benchAdminUsers],
        ['datasetImages', benchDatasetImages],
      ] as const) {
        if (!LISTS.includes(name)) continue;
        const r = await run(kind, database);
        lines[name][kind] = r;
        pass &&= r.lastOverFirst <= TARGET;
      }
    }
  } finally {
    await runCleanups();
  }
  console.log(JSON.stringify({ bench: 'keyset-pages', ...lines, target: `last page ≤ ${TARGET}× the first`, pass }));
}

main().catch(async (err) => {
  console.error(err);
  await runCleanups();
  process.exit(1);
});
