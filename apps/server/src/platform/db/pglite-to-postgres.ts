/**
 * Converts the PGlite database of a data folder (`<DATA_DIR>/db`, the embedded default before ADR 0010)
 * into the embedded PostgreSQL cluster (`<DATA_DIR>/postgres`), then moves the PGlite folder aside so
 * the next start uses the cluster. Run with the server stopped:
 *
 *   npm run db:to-postgres            (DATA_DIR from the environment, default ./data)
 *
 * Both sides are brought to the latest migration first, then every table is copied as JSON rows
 * (`row_to_json` → `json_populate_recordset`: bytea, jsonb, arrays and timestamps survive as they are)
 * in one transaction with triggers and foreign keys deferred, and sequences are moved past the copied ids.
 */
import fs from 'node:fs';
import path from 'node:path';
import { embeddedClusterDir, openDatabase, openEmbeddedPostgres } from './client.js';
import { migrate } from './migrate.js';

const CHUNK = 500;

export async function convertPgliteToPostgres(
  pgliteDir: string,
  log: (m: string) => void = () => undefined,
): Promise<{ tables: number; rows: number; movedTo: string }> {
  const clusterDir = embeddedClusterDir(pgliteDir);
  if (!fs.existsSync(path.join(pgliteDir, 'PG_VERSION'))) throw new Error(`${pgliteDir} holds no PGlite database`);
  if (fs.existsSync(clusterDir)) throw new Error(`${clusterDir} exists already; move it away to convert again`);
  const source = await openDatabase({ url: null, pgliteDir, embedded: 'pglite' });
  let rows = 0;
  let tables: string[] = [];
  try {
    await migrate(source);
    const target = await openEmbeddedPostgres(clusterDir);
    try {
      await migrate(target);
      tables = (
        await source.query<{ t: string }>(
          `SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY table_name`,
        )
      ).map((r) => r.t);
      await target.withConnection(async (conn) => {
        await conn.exec('BEGIN');
        try {
          // Superuser: no triggers, no foreign-key checks while tables arrive in name order.
          await conn.exec(`SET LOCAL session_replication_role = replica`);
          for (const table of tables) {
            const cols = (
              await source.query<{ c: string }>(
                `SELECT column_name AS c FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1 AND is_generated = 'NEVER' ORDER BY ordinal_position`,
                [table],
              )
            ).map((r) => `"${r.c}"`);
            // Rows a migration seeded on the new side are replaced by the install's own.
            await conn.exec(`DELETE FROM "${table}"`);
            const data = await source.query<{ r: unknown }>(`SELECT row_to_json(t) AS r FROM "${table}" t`);
            for (let i = 0; i < data.length; i += CHUNK) {
              const chunk = JSON.stringify(data.slice(i, i + CHUNK).map((d) => d.r));
              await conn.query(
                `INSERT INTO "${table}" (${cols.join(', ')}) OVERRIDING SYSTEM VALUE SELECT ${cols.join(', ')} FROM json_populate_recordset(NULL::"${table}", $1::json)`,
                [chunk],
              );
            }
            rows += data.length;
            log(`${table}: ${data.length} rows`);
          }
          const sequences = await conn.query<{ t: string; c: string; s: string }>(
            `SELECT table_name AS t, column_name AS c, pg_get_serial_sequence(quote_ident(table_name), column_name) AS s
               FROM information_schema.columns WHERE table_schema = 'public' AND pg_get_serial_sequence(quote_ident(table_name), column_name) IS NOT NULL`,
          );
          for (const { t, c, s } of sequences) await conn.query(`SELECT setval($1, COALESCE((SELECT max("${c}") FROM "${t}"), 0) + 1, false)`, [s]);
          await conn.exec('COMMIT');
        } catch (err) {
          await conn.exec('ROLLBACK');
          throw err;
        }
      });
    } catch (err) {
      await target.close();
      fs.rmSync(clusterDir, { recursive: true, force: true });
      fs.rmSync(`${clusterDir}.secret`, { force: true });
      throw err;
    }
    await target.close();
  } finally {
    await source.close();
  }
  const movedTo = `${pgliteDir}.pglite-${new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-')}`;
  fs.renameSync(pgliteDir, movedTo);
  return { tables: tables.length, rows, movedTo };
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const dataDir = path.resolve(process.env.DATA_DIR ?? './data');
  convertPgliteToPostgres(path.join(dataDir, 'db'), (m) => console.log(m)).then(
    (r) =>
      console.log(
        `Converted ${r.rows} rows in ${r.tables} tables into ${embeddedClusterDir(path.join(dataDir, 'db'))}; the PGlite folder is now ${r.movedTo} (delete it once you are happy).`,
      ),
    (err: unknown) => {
      console.error(`Conversion failed, nothing changed: ${(err as Error).message}`);
      process.exit(1);
    },
  );
}
