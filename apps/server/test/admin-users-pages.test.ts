import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { users } from '../src/platform/db/schema.js';
import { newId } from '../src/platform/ids.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * `GET /v1/admin/users` and the user search in keyset pages (ADR 0042): the cursor names the page's last
 * user and the database compares against that row, so users created in one millisecond (or in one
 * microsecond) are neither skipped nor repeated.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await buildUser(t.app);
});
afterAll(async () => {
  await t.close();
});
const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie: admin.cookie } });

/** `n` users whose created_at fall in one millisecond: some share a microsecond, some differ in it only. */
async function sameMillisecond(prefix: string, n: number) {
  const rows = Array.from({ length: n }, (_, i) => {
    const id = newId();
    return { id, email: `${prefix}${i}-${id.slice(-6).toLowerCase()}@pages.test`, username: `${prefix}_${i}_${id.slice(-6)}`, firstName: 'Page', image: '' };
  });
  await t.database.db.insert(users).values(rows);
  // 2026-03-04 05:06:07.123xxx: three microseconds, so some ties are broken by the id only.
  const ids = rows.map((r) => r.id);
  await t.database.db.execute(
    sql`UPDATE users SET created_at = timestamptz '2026-03-04 05:06:07.123000+00' + (interval '1 microsecond' * (abs(hashtext(id)) % 3)) WHERE id IN (${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )})`,
  );
  return ids;
}

async function pagesOf(url: (cursor: string | null) => string, pick: (data: Record<string, unknown>) => { ids: string[]; next: string | null }) {
  const seen: string[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const res = await get(url(cursor));
    expect(res.statusCode, res.body).toBe(200);
    const page = pick(res.json().data as Record<string, unknown>);
    seen.push(...page.ids);
    cursor = page.next;
    pages++;
  } while (cursor && pages < 1000);
  return { seen, pages };
}

const listPage = (d: Record<string, unknown>) => ({ ids: (d.items as Array<{ id: string }>).map((u) => u.id), next: d.nextCursor as string | null });

describe('admin users in keyset pages', () => {
  it('pages cover every user exactly once, newest first, including many created in the same millisecond', async () => {
    const ids = await sameMillisecond('km', 37);
    const all = (await t.database.db.execute(sql`SELECT id FROM users ORDER BY created_at DESC, id DESC`)) as unknown as { rows: Array<{ id: string }> };
    const expected = all.rows.map((r) => r.id);
    expect(expected.length).toBeGreaterThanOrEqual(38);
    const { seen, pages } = await pagesOf((c) => `/v1/admin/users?limit=4${c ? `&cursor=${c}` : ''}`, listPage);
    expect(seen).toEqual(expected);
    expect(pages).toBe(Math.ceil(expected.length / 4));
    for (const id of ids) expect(seen.filter((s) => s === id)).toHaveLength(1);
  });

  it('a search pages too, and the user search pages by time to the microsecond', async () => {
    const ids = await sameMillisecond('qz', 23);
    const { seen } = await pagesOf((c) => `/v1/admin/users?q=QZ&limit=5${c ? `&cursor=${c}` : ''}`, listPage);
    expect([...seen].sort()).toEqual([...ids].sort());
    expect(new Set(seen).size).toBe(23);
    for (const dir of ['desc', 'asc'] as const) {
      const search = await pagesOf(
        (c) => `/v1/admin/users/search?q=qz&sort=created&dir=${dir}&limit=3${c ? `&cursor=${c}` : ''}`,
        (d) => ({ ids: (d.users as Array<{ id: string }>).map((u) => u.id), next: d.next as string | null }),
      );
      expect(search.seen, dir).toHaveLength(23);
      expect(new Set(search.seen).size, dir).toBe(23);
    }
  });

  it('answers 400 for a cursor that is not one, 403 to a non-admin, and a first page with its next cursor', async () => {
    expect((await get('/v1/admin/users?cursor=garbage')).statusCode).toBe(400);
    expect((await get('/v1/admin/users?limit=0')).statusCode).toBe(400);
    expect((await get('/v1/admin/users/search?cursor=garbage')).statusCode).toBe(400);
    const other = await buildUser(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/v1/admin/users', headers: { cookie: other.cookie } })).statusCode).toBe(403);
    const first = (await get('/v1/admin/users?limit=1')).json().data;
    expect(first.items).toHaveLength(1);
    expect(typeof first.nextCursor).toBe('string');
  });
});
