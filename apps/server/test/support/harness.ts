import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Clock } from '../../src/context.js';
import { openDatabase, wrapPglite, type Database } from '../../src/platform/db/client.js';
import { migrate, MIGRATIONS_DIR } from '../../src/platform/db/migrate.js';
import { newId } from '../../src/platform/ids.js';

/** Which database the server suite runs against: `TEST_DB=pglite` (default) or `TEST_DB=postgres`. */
export const TEST_DB = process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export class TestClock implements Clock {
  private offsetMs = 0;
  now() {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

/**
 * A fresh database for one test file: in-memory PGlite, or a private schema on the real
 * PostgreSQL server that is dropped afterwards (so files run in parallel without truncation).
 */
export async function openTestDatabase(): Promise<{ database: Database; schema: string | null; drop(): Promise<void> }> {
  if (TEST_DB === 'postgres') {
    const schema = `t_${newId().toLowerCase()}`;
    const database = await openDatabase({ url: TEST_PG_URL, pgliteDir: null, schema, poolSize: 5 });
    await migrate(database);
    return {
      database,
      schema,
      async drop() {
        await database.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await database.close();
      },
    };
  }
  const database = wrapPglite(new PGlite({ loadDataDir: await migratedPgliteSnapshot() }));
  await migrate(database); // a no-op on the snapshot: it holds every migration of MIGRATIONS_DIR
  return { database, schema: null, drop: () => database.close() };
}

/**
 * A fresh in-memory PGlite runs initdb (5–10 s on a busy 2-core machine, once per test file); one
 * started from a data folder dump does not (under a second). The dump of a migrated database is
 * made once per PGlite version and migration set and shared by the test processes through a file
 * in the temp folder (written aside and renamed, so a concurrent reader never sees half of it).
 */
async function migratedPgliteSnapshot(): Promise<Blob> {
  const key = crypto.createHash('sha256');
  const pgliteEntry = createRequire(import.meta.url).resolve('@electric-sql/pglite'); // <package>/dist/index.cjs
  key.update(fs.readFileSync(path.join(path.dirname(pgliteEntry), '..', 'package.json')));
  for (const f of fs.readdirSync(MIGRATIONS_DIR).sort()) key.update(`\0${f}\0`).update(fs.readFileSync(path.join(MIGRATIONS_DIR, f)));
  const file = path.join(os.tmpdir(), `sightline-pglite-${key.digest('hex').slice(0, 16)}.tar`);
  if (fs.existsSync(file)) return new Blob([fs.readFileSync(file)]);
  const client = new PGlite();
  try {
    await migrate(wrapPglite(client));
    const dump = await client.dumpDataDir('none');
    const tmp = `${file}.${process.pid}.${newId()}`;
    fs.writeFileSync(tmp, Buffer.from(await dump.arrayBuffer()));
    fs.renameSync(tmp, file);
    // Other snapshots made over a day ago go (made again if still wanted), so the temp folder does not fill up.
    for (const f of fs.readdirSync(os.tmpdir())) {
      if (!/^sightline-pglite-[0-9a-f]{16}\.tar$/.test(f)) continue;
      const other = path.join(os.tmpdir(), f);
      const mtimeMs = fs.statSync(other, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (other !== file && mtimeMs < Date.now() - 86_400_000) fs.rmSync(other, { force: true });
    }
    return dump;
  } finally {
    await client.close();
  }
}

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  config: Config;
  dataDir: string;
  database: Database;
  close(): Promise<void>;
}

/**
 * Config of a test server: quiet logs, its own data folder, no web build, one fixed session secret,
 * cheap password hashes (PASSWORD_HASH_COST=test).
 * (createTestApp also turns jobs off: tests run them with ctx.jobs.drain() so outcomes are deterministic.)
 */
export function testConfig(dataDir: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-0123',
    WEB_DIST: path.join(dataDir, 'no-web'),
    PASSWORD_HASH_COST: 'test',
    ...env,
  });
}

export async function createTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-test-'));
  const config = testConfig(dataDir, { JOBS_ENABLED: 'false', ...env });
  const { database, drop } = await openTestDatabase();
  const clock = new TestClock();
  const app = await buildApp({ config, database, clock });
  await app.ready();
  const testApp: TestApp = {
    app,
    clock,
    config,
    dataDir,
    database,
    async close() {
      // Tests may swap in a restarted app (same database and data folder): close whichever is current.
      await testApp.app.close();
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return testApp;
}

let seq = 0;
export function uniqueEmail(prefix = 'user') {
  seq += 1;
  return `${prefix}${seq}-${newId().slice(0, 6).toLowerCase()}@example.com`;
}

export function sessionCookie(res: LightMyRequestResponse): string {
  const c = res.cookies.find((k) => k.name === 'sl_session');
  if (!c) throw new Error(`no session cookie in response ${res.statusCode}: ${res.body}`);
  return `sl_session=${c.value}`;
}

export interface ClusterNode {
  app: FastifyInstance;
  /** http://127.0.0.1:<port> of this instance */
  url: string;
  config: Config;
}

export interface TestCluster {
  nodes: ClusterNode[];
  /** A handle on the shared database for direct assertions. */
  database: Database;
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * Several server instances on ONE database, each listening on a random loopback port, like a
 * horizontally scaled deployment. PGlite lives in-process, so the instances share its handle; on
 * PostgreSQL every instance gets its own pool and LISTEN connection to the same schema, so realtime
 * events really cross connections through NOTIFY.
 */
export async function createTestCluster(count = 2, env: Record<string, string> = {}): Promise<TestCluster> {
  const { database, schema, drop } = await openTestDatabase();
  const clock = new TestClock();
  const nodes: ClusterNode[] = [];
  const extraHandles: Database[] = [];
  const dataDirs: string[] = [];
  const close = async () => {
    for (const n of nodes) await n.app.close();
    for (const h of extraHandles) await h.close();
    await drop();
    for (const d of dataDirs) fs.rmSync(d, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < count; i++) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `sightline-node${i}-`));
      dataDirs.push(dataDir);
      // testConfig's fixed secret is the same on every node: a cookie signed by one verifies on the others.
      const config = testConfig(dataDir, env);
      let handle = database;
      if (i > 0 && TEST_DB === 'postgres') {
        handle = await openDatabase({ url: TEST_PG_URL, pgliteDir: null, schema, poolSize: 5 });
        extraHandles.push(handle);
      }
      const app = await buildApp({ config, database: handle, clock });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as { port: number };
      nodes.push({ app, url: `http://127.0.0.1:${port}`, config });
    }
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
  return { nodes, database, clock, close };
}

export const FIXTURES = path.resolve(import.meta.dirname, '../../../../../shared/fixtures/models');

/** A multipart/form-data body for inject (fields first, then one file). */
export function multipart(fields: Record<string, string>, file?: { field?: string; filename: string; content: Buffer; contentType?: string }) {
  const boundary = `----sightline${newId()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
    );
    parts.push(file.content, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
