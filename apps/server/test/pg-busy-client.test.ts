import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/platform/db/client.js';
import { migrate } from '../src/platform/db/migrate.js';
import { newId } from '../src/platform/ids.js';
import { TEST_PG_URL, testConfig } from './support/harness.js';
import { buildApiKey, buildUser } from './support/factories.js';

/**
 * node-postgres queues a query issued on a client that is still running another and warns
 * ("Calling client.query() when the client is already executing a query is deprecated"); pg@9
 * refuses it. Under parallel writes to the cached tables every write used to fence on the one
 * LISTEN connection at once (read-your-writes, ADR 0017). This runs that parallel case on
 * PostgreSQL (the driver in question; a private schema, whatever TEST_DB says) with the driver's
 * warning, and any query issued on a busy client, turned into a failure.
 */

const busy: string[] = [];
const warnings: string[] = [];
const onWarning = (w: Error) => {
  if (/already executing a query/.test(w.message)) warnings.push(w.message);
};
type ClientInternals = { _activeQuery?: unknown; _queryQueue?: unknown[] };
const originalQuery = pg.Client.prototype.query;

let app: FastifyInstance;
let database: Database;
let dataDir: string;
const schema = `t_${newId().toLowerCase()}`;

beforeAll(async () => {
  process.on('warning', onWarning);
  (pg.Client.prototype as unknown as { query: (...a: unknown[]) => unknown }).query = function (this: ClientInternals, ...args: unknown[]) {
    // The driver's own test (client.js) is a non-empty queue; a query already running is the same fault, earlier.
    if (this._activeQuery || (this._queryQueue?.length ?? 0) > 0) busy.push(String(new Error('query on a busy client').stack));
    return (originalQuery as unknown as (...a: unknown[]) => unknown).apply(this, args);
  };
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-busy-'));
  database = await openDatabase({ url: TEST_PG_URL, pgliteDir: null, schema, poolSize: 5 });
  await migrate(database);
  app = await buildApp({ config: testConfig(dataDir, { JOBS_ENABLED: 'false' }), database });
  await app.ready();
});

afterAll(async () => {
  process.off('warning', onWarning);
  (pg.Client.prototype as unknown as { query: unknown }).query = originalQuery;
  await app?.close();
  await database?.exec(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('no query on a busy PostgreSQL client (docs/adr/0024)', () => {
  it('10 users setting up projects and models in parallel, with profile writes and reads between, then 10 training runs at once', async () => {
    const users = await Promise.all(Array.from({ length: 10 }, () => buildUser(app)));
    busy.length = 0;
    const api = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: object) =>
      app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
    const statuses = await Promise.all(
      users.map(async (u, i) => {
        const project = await api('POST', '/v1/projects', u.cookie, { name: `Parallel ${i}` });
        const made = await Promise.all(
          Array.from({ length: 3 }, (_, k) =>
            api('POST', '/v1/models', u.cookie, {
              meta: { name: `run ${k}` },
              projectId: project.json().data.id,
              lineage: { architecture: { name: 'yolo11n' } },
            }),
          ),
        );
        const profile = await api('PATCH', '/v1/users/me', u.cookie, { firstName: `P${i}` });
        const me = await api('GET', '/v1/users/me', u.cookie);
        return [project.statusCode, ...made.map((m) => m.statusCode), profile.statusCode, me.statusCode];
      }),
    );
    // 10 training runs set up at once through the Platform protocol (the ultralytics client's training_started).
    const key = (await buildApiKey(app, { cookie: users[0]!.cookie, origin: 'http://localhost:3000' }, { name: 'runs' })).key;
    const runs = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/api/webhooks/training/metrics',
          headers: { 'x-api-key': key, 'content-type': 'application/json' },
          payload: { event: 'training_started', project: `${users[0]!.user.username}/parallel`, name: `run-${i}`, data: { trainArgs: { epochs: 3 } } },
        }),
      ),
    );
    expect(runs.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(statuses.flat().filter((s) => s >= 300)).toEqual([]);
    // Let any queued deprecation warning arrive (process warnings are emitted on the next tick).
    await new Promise((r) => setTimeout(r, 50));
    expect(warnings).toEqual([]);
    expect(busy.slice(0, 3)).toEqual([]);
  });
});
