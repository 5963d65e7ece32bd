import type { Db } from './client.js';

/**
 * A prepared statement per database handle, built once: drizzle skips building the query, and on
 * PostgreSQL the named statement is parsed and planned once per connection. For lookups that run on
 * every cache miss of a hot path (sessions, API keys, models for predict). Inside a transaction the
 * statement is prepared on the transaction's handle.
 */
export function preparedPer<P>(build: (db: Db) => P): (db: Db) => P {
  const byDb = new WeakMap<Db, P>();
  return (db) => {
    let p = byDb.get(db);
    if (!p) byDb.set(db, (p = build(db)));
    return p;
  };
}
