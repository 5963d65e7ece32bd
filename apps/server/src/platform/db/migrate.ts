import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './client.js';

export const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
const LOCK_ID = 727274;

/**
 * Applies ./migrations/*.sql in name order, each once, each in its own transaction, on one pinned
 * connection holding an advisory lock so two instances starting together do not race.
 */
export async function migrate(database: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.sql'))
    .sort();
  return database.withConnection(async (conn) => {
    await conn.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    const applied: string[] = [];
    try {
      await conn.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())');
      const done = new Set((await conn.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name));
      for (const file of files) {
        if (done.has(file)) continue;
        const sql = fs.readFileSync(path.join(dir, file), 'utf8');
        await conn.exec('BEGIN');
        try {
          await conn.exec(sql);
          await conn.query('INSERT INTO schema_migrations (name) VALUES ($1)', [file]);
          await conn.exec('COMMIT');
        } catch (err) {
          await conn.exec('ROLLBACK');
          throw new Error(`migration ${file} failed: ${(err as Error).message}`, { cause: err });
        }
        applied.push(file);
      }
    } finally {
      await conn.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]);
    }
    return applied;
  });
}
