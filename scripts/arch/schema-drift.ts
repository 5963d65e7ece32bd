/**
 * `arch:check` measure: schema drift (ADR 0033). Migrates a fresh in-memory PGlite with
 * apps/server/src/platform/db/migrations and compares it with the drizzle tables through the
 * server's own comparison (platform/db/schema-drift.ts), the one test/schema-drift.test.ts runs on
 * PGlite and PostgreSQL. Each disagreement (a table, column, type or nullability on one side only)
 * is one finding.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';

interface DriftModule {
  drizzleShape(exports: Iterable<unknown>): unknown;
  databaseShape(db: unknown): Promise<unknown>;
  schemaDrift(drizzle: unknown, database: unknown): string[];
}
interface Db {
  close(): Promise<void>;
}

export async function schemaDrift(root: string): Promise<string[]> {
  const db = path.join(root, 'apps/server/src/platform/db');
  const load = <T>(file: string) => import(pathToFileURL(path.join(db, file)).href) as Promise<T>;
  const { openDatabase } = await load<{ openDatabase(o: { url: null; pgliteDir: null }): Promise<Db> }>('client.ts');
  const { migrate } = await load<{ migrate(d: Db): Promise<string[]> }>('migrate.ts');
  const schema = await load<Record<string, unknown>>('schema.ts');
  const drift = await load<DriftModule>('schema-drift.ts');
  const database = await openDatabase({ url: null, pgliteDir: null });
  try {
    await migrate(database);
    return drift.schemaDrift(drift.drizzleShape(Object.values(schema)), await drift.databaseShape(database));
  } finally {
    await database.close();
  }
}
