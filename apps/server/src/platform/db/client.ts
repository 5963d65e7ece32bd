import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * One dialect, two engines: embedded PGlite (default) or a PostgreSQL server (DATABASE_URL).
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
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
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
}

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  return opts.url ? openPostgres(opts.url, opts.schema ?? null, opts.poolSize ?? 10) : openPglite(opts.pgliteDir);
}

async function openPglite(dir: string | null): Promise<Database> {
  if (dir) fs.mkdirSync(path.dirname(dir), { recursive: true });
  const client = dir ? new PGlite(dir) : new PGlite();
  await client.waitReady;
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
  const pool = new pg.Pool({ connectionString: url, max, options });
  pool.on('error', () => {
    /* idle client errors surface on the next query */
  });
  let listener: pg.Client | null = null;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  async function listenerClient(): Promise<pg.Client> {
    if (listener) return listener;
    const c = new pg.Client({ connectionString: url, options });
    await c.connect();
    c.on('notification', (msg) => {
      for (const h of handlers.get(msg.channel) ?? []) h(msg.payload ?? '');
    });
    c.on('error', () => {
      /* the realtime bus re-subscribes on reconnect */
    });
    listener = c;
    return c;
  }
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
    listen: async (channel, cb) => {
      const c = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await c.query(`LISTEN "${channel.replace(/"/g, '')}"`);
      }
      set.add(cb);
      return async () => {
        set.delete(cb);
      };
    },
    notify: async (channel, payload) => {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: async () => {
      if (listener) await listener.end().catch(() => undefined);
      await pool.end();
    },
  };
}
