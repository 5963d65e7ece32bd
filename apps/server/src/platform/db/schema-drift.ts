import { is } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './client.js';

/**
 * Schema drift (ADR 0033): the tables the SQL migrations build and the drizzle tables the
 * repositories query must agree on every table, column, type and nullability. The migrations are
 * the truth the database runs; the drizzle tables are kept by hand beside them, so a column added
 * to one side only is a bug waiting for the first query that names it.
 */

export interface ColumnShape {
  type: string;
  notNull: boolean;
}
/** table → column → shape */
export type SchemaShape = Map<string, Map<string, ColumnShape>>;

/** Tables the migrations create for the migration runner itself, with no drizzle twin by design. */
const BOOKKEEPING = new Set(['schema_migrations']);

/** `bigserial` is `bigint` with a sequence default in the catalogue; likewise `serial`. */
const SERIAL: Record<string, string> = { bigserial: 'bigint', serial: 'integer', smallserial: 'smallint' };
const normalType = (t: string) => SERIAL[t] ?? t;

/** The shape of drizzle tables (the schema module's exports: anything that is not a table is skipped). */
export function drizzleShape(exports: Iterable<unknown>): SchemaShape {
  const shape: SchemaShape = new Map();
  for (const value of exports) {
    if (!is(value, PgTable)) continue;
    const config = getTableConfig(value);
    const inPrimaryKey = new Set(config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name)));
    const columns = new Map<string, ColumnShape>();
    for (const c of config.columns) columns.set(c.name, { type: normalType(c.getSQLType()), notNull: c.notNull || c.primary || inPrimaryKey.has(c.name) });
    shape.set(config.name, columns);
  }
  return shape;
}

/** The shape of the database's tables in the current schema, as the catalogue states it. */
export async function databaseShape(db: Queryable): Promise<SchemaShape> {
  const rows = await db.query<{ table: string; column: string; type: string; not_null: boolean }>(
    `SELECT c.relname AS "table", a.attname AS "column", format_type(a.atttypid, a.atttypmod) AS "type", a.attnotnull AS not_null
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY 1, a.attnum`,
  );
  const shape: SchemaShape = new Map();
  for (const r of rows) {
    if (BOOKKEEPING.has(r.table)) continue;
    if (!shape.has(r.table)) shape.set(r.table, new Map());
    shape.get(r.table)!.set(r.column, { type: normalType(r.type), notNull: Boolean(r.not_null) });
  }
  return shape;
}

/** Every disagreement between the drizzle tables and the migrated database, one sentence each (none: in step). */
export function schemaDrift(drizzle: SchemaShape, database: SchemaShape): string[] {
  const out: string[] = [];
  for (const table of [...new Set([...drizzle.keys(), ...database.keys()])].sort()) {
    const d = drizzle.get(table);
    const m = database.get(table);
    if (!d) {
      out.push(`table ${table}: in the migrations, not in the drizzle schema`);
      continue;
    }
    if (!m) {
      out.push(`table ${table}: in the drizzle schema, not in the migrations`);
      continue;
    }
    for (const column of [...new Set([...d.keys(), ...m.keys()])].sort()) {
      const a = d.get(column);
      const b = m.get(column);
      if (!a) out.push(`${table}.${column}: in the migrations, not in the drizzle schema`);
      else if (!b) out.push(`${table}.${column}: in the drizzle schema, not in the migrations`);
      else {
        if (a.type !== b.type) out.push(`${table}.${column}: type ${a.type} in drizzle, ${b.type} in the migrations`);
        if (a.notNull !== b.notNull)
          out.push(`${table}.${column}: ${a.notNull ? 'NOT NULL' : 'nullable'} in drizzle, ${b.notNull ? 'NOT NULL' : 'nullable'} in the migrations`);
      }
    }
  }
  return out;
}
