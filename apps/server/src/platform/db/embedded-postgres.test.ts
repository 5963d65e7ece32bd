import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedClusterDir, openDatabase } from './client.js';
import { migrate } from './migrate.js';
import { convertPgliteToPostgres } from './pglite-to-postgres.js';

// Real PostgreSQL binaries from npm (initdb takes a few seconds); no DATABASE_URL needed.
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-embedded-pg-'));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('embedded PostgreSQL', () => {
  it('initialises a cluster beside db/, keeps data across restarts on a new port, and stops with close()', async () => {
    const pgliteDir = path.join(dir, 'fresh', 'db');
    const first = await openDatabase({ url: null, pgliteDir, embedded: 'postgres' });
    expect(first.driver).toBe('postgres');
    await migrate(first);
    await first.exec(`INSERT INTO analytics_events (id, name, properties) VALUES ('e1', 'start', '{"a": [1, 2]}')`);
    const [{ pid }] = await first.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    expect(pid).toBeGreaterThan(0);
    // Commits do not wait for the WAL flush unless EMBEDDED_DB_SYNC_COMMIT=on (ADR 0017).
    expect(await first.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'off' }]);
    await first.close();
    expect(fs.existsSync(path.join(embeddedClusterDir(pgliteDir), 'postmaster.pid'))).toBe(false);
    expect(fs.existsSync(pgliteDir)).toBe(false);

    const again = await openDatabase({ url: null, pgliteDir, embedded: 'postgres', embeddedSyncCommit: true });
    try {
      expect(await again.query('SHOW synchronous_commit')).toEqual([{ synchronous_commit: 'on' }]);
      expect(await again.query('SELECT id, properties FROM analytics_events')).toEqual([{ id: 'e1', properties: { a: [1, 2] } }]);
      expect(await migrate(again)).toEqual([]);
    } finally {
      await again.close();
    }
  }, 120_000);

  it('leaves an existing PGlite install on PGlite, and db:to-postgres converts it with its rows', async () => {
    const pgliteDir = path.join(dir, 'old', 'db');
    const old = await openDatabase({ url: null, pgliteDir, embedded: 'pglite' });
    await migrate(old);
    await old.exec(
      `INSERT INTO analytics_events (id, user_id, name, properties, created_at) VALUES ('e1', NULL, 'x', '{"k": "é"}', '2024-02-03T04:05:06.789Z'), ('e2', 'u1', 'y', '[]', now())`,
    );
    await old.close();

    const stays = await openDatabase({ url: null, pgliteDir, embedded: 'postgres' });
    expect(stays.driver).toBe('pglite');
    await stays.close();

    const result = await convertPgliteToPostgres(pgliteDir);
    expect(result.rows).toBeGreaterThanOrEqual(2);
    expect(fs.existsSync(pgliteDir)).toBe(false);
    expect(fs.existsSync(result.movedTo)).toBe(true);
    const converted = await openDatabase({ url: null, pgliteDir, embedded: 'postgres' });
    try {
      expect(converted.driver).toBe('postgres');
      const rows = await converted.query<{ id: string; user_id: string | null; properties: unknown; created_at: Date }>(
        'SELECT id, user_id, properties, created_at FROM analytics_events ORDER BY id',
      );
      expect(rows.map((r) => [r.id, r.user_id, r.properties])).toEqual([
        ['e1', null, { k: 'é' }],
        ['e2', 'u1', []],
      ]);
      expect(rows[0].created_at.toISOString()).toBe('2024-02-03T04:05:06.789Z');
    } finally {
      await converted.close();
    }
    await expect(convertPgliteToPostgres(result.movedTo)).rejects.toThrow(/exists already/);
  }, 180_000);
});
