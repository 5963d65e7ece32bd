import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { analyticsEvents, analyticsRollup, jobs, mailOutbox } from '../src/platform/db/schema.js';
import { newId } from '../src/platform/ids.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildApiKey, buildProject, buildUser } from './support/factories.js';

/** The admin area's reads and job controls: users search and detail, analytics, jobs, feedback. */
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
const post = (url: string, payload?: object) => t.app.inject({ method: 'POST', url, headers: { cookie: admin.cookie }, payload });

describe('users', () => {
  it('searches by email, username and first name prefix; keyset pages cover every match once, in order', async () => {
    const made = [];
    for (let i = 0; i < 7; i++)
      made.push(
        await buildUser(t.app, {
          email: `zeta${i}-${newId().slice(0, 4).toLowerCase()}@lab.test`,
          username: `zz_${i}_${newId().slice(0, 4)}`,
          firstName: i === 3 ? 'Quentin' : 'Test',
        }),
      );
    const byEmail = (await get('/v1/admin/users/search?q=ZETA&limit=50')).json().data;
    expect(byEmail.users).toHaveLength(7);
    expect((await get('/v1/admin/users/search?q=zz_&limit=50')).json().data.users).toHaveLength(7);
    expect((await get('/v1/admin/users/search?q=quent')).json().data.users.map((u: { id: string }) => u.id)).toEqual([made[3]!.user.id]);
    // LIKE wildcards are literal
    expect((await get('/v1/admin/users/search?q=%25')).json().data.users).toEqual([]);
    for (const [sort, dir] of [
      ['created', 'desc'],
      ['email', 'asc'],
      ['username', 'desc'],
      ['lastLogin', 'asc'],
    ] as const) {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page = (await get(`/v1/admin/users/search?q=zeta&sort=${sort}&dir=${dir}&limit=3${cursor ? `&cursor=${cursor}` : ''}`)).json().data as {
          users: Array<{ id: string; email: string }>;
          next: string | null;
        };
        seen.push(...page.users.map((u) => u.email));
        cursor = page.next;
      } while (cursor);
      expect(new Set(seen).size, sort).toBe(7);
      if (sort === 'email') expect(seen).toEqual([...seen].sort());
    }
    expect((await get('/v1/admin/users/search?cursor=garbage')).statusCode).toBe(400);
  });

  it('detail: plan, roles, storage per collection with trash, counts, sessions, API keys, inference', async () => {
    const u = await buildUser(t.app);
    const cookie = { cookie: u.cookie };
    const p1 = await buildProject(t.app, cookie, { meta: { name: 'one' } });
    await buildProject(t.app, cookie, { meta: { name: 'two' } });
    await t.app.inject({ method: 'DELETE', url: `/v1/projects/${p1.id}`, headers: cookie });
    await buildApiKey(t.app, cookie, { name: 'k' });
    const d = (await get(`/v1/admin/users/${u.user.id}`)).json().data;
    expect(d).toMatchObject({
      id: u.user.id,
      plan: 'free',
      roles: [],
      apiKeys: 1,
      sessions: 1,
      inference: { thisMonth: 0, total: 0 },
      storage: { projects: { count: 1, trashed: 1 }, datasets: { count: 0, trashed: 0 }, models: { count: 0 } },
    });
    expect(d.lastLogin).not.toBeNull();
    expect((await get('/v1/admin/users/nope')).statusCode).toBe(404);
  });
});

describe('outbox', () => {
  it('keyset pages (ADR 0042): newest first, every mail once, microseconds and equal times kept apart; a bad cursor is a 400', async () => {
    // Two mails in one millisecond (apart by microseconds) and two at the same instant (the id decides).
    await t.database.db.execute(sql`
      INSERT INTO mail_outbox (id, to_address, subject, text_body, created_at) VALUES
        ('mk_a', 'a@lab.test', 'a', 'a', '2030-01-01 00:00:00.123456+00'),
        ('mk_b', 'b@lab.test', 'b', 'b', '2030-01-01 00:00:00.123100+00'),
        ('mk_c', 'c@lab.test', 'c', 'c', '2030-01-01 00:00:00.1+00'),
        ('mk_d', 'd@lab.test', 'd', 'd', '2030-01-01 00:00:00.1+00'),
        ('mk_e', 'e@lab.test', 'e', 'e', '2029-12-31 23:59:59+00')`);
    const total = (await t.database.db.select().from(mailOutbox)).length;
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(`/v1/admin/outbox?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const page = res.json().data as { mails: Array<{ id: string }>; nextCursor: string | null };
      expect(page.mails.length).toBeLessThanOrEqual(2);
      seen.push(...page.mails.map((m) => m.id));
      cursor = page.nextCursor;
      pages++;
    } while (cursor && pages < 100);
    expect(seen.slice(0, 5)).toEqual(['mk_a', 'mk_b', 'mk_d', 'mk_c', 'mk_e']);
    expect(seen).toHaveLength(total);
    expect(new Set(seen).size).toBe(total);
    expect((await get('/v1/admin/outbox?limit=2&cursor=not-a-cursor')).statusCode).toBe(400);
    expect((await get('/v1/admin/outbox?limit=0')).statusCode).toBe(400);
  });
});

describe('analytics', () => {
  it('every analytics event of spec §1 is recorded somewhere in the server (a track() call names it)', () => {
    const spec = ['sign_up', 'sign_in', 'sign_out', 'update_profile', 'update_password', 'update_plan', 'export_model', 'infer_model', 'empty_trash'];
    for (const verb of ['create', 'update', 'delete', 'share']) for (const kind of ['dataset', 'project', 'model']) spec.push(`${verb}_${kind}`);
    const src = path.resolve(import.meta.dirname, '../src');
    const files = (fs.readdirSync(src, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));
    const text = files.map((f) => fs.readFileSync(path.join(src, f), 'utf8')).join('\n');
    const tracked = new Set([...text.matchAll(/track\(ctx,[^,]+,\s*'([a-z_]+)'/g)].map((m) => m[1]));
    expect(spec.filter((e) => !tracked.has(e))).toEqual([]);
  });

  it('events over time per name by day and week, active users, sign-ups, top models; CSV', async () => {
    const day = (n: number) => new Date(Date.UTC(2030, 0, 6 + n, 12)); // 2030-01-07 is a Monday
    const rows = [
      { name: 'sign_up', userId: 'ua', createdAt: day(1) },
      { name: 'sign_in', userId: 'ua', createdAt: day(1) },
      { name: 'sign_in', userId: 'ub', createdAt: day(1) },
      { name: 'sign_in', userId: 'ua', createdAt: day(2) },
      { name: 'infer_model', userId: 'ua', createdAt: day(2), properties: { modelId: 'm1' } },
      { name: 'infer_model', userId: 'ua', createdAt: day(2), properties: { modelId: 'm1' } },
      { name: 'infer_model', userId: 'ub', createdAt: day(9), properties: { modelId: 'm2' } },
    ];
    await t.database.db.insert(analyticsEvents).values(rows.map((r) => ({ id: newId(), properties: {}, ...r })));
    const q = `from=${day(0).toISOString()}&to=${day(14).toISOString()}`;
    const daily = (await get(`/v1/admin/analytics/events?${q}&interval=day`)).json().data;
    expect(daily.buckets).toHaveLength(15); // partial first and last days included
    expect(daily.buckets[1]).toBe('2030-01-07');
    const signIn = daily.series.find((s: { name: string }) => s.name === 'sign_in');
    expect(signIn.counts.slice(0, 4)).toEqual([0, 2, 1, 0]);
    expect(daily.activeUsers.slice(0, 3)).toEqual([0, 2, 1]);
    expect(daily.signUps[1]).toBe(1);
    const weekly = (await get(`/v1/admin/analytics/events?${q}&interval=week`)).json().data;
    expect(weekly.buckets.slice(0, 3)).toEqual(['2029-12-31', '2030-01-07', '2030-01-14']);
    expect(weekly.series.find((s: { name: string }) => s.name === 'infer_model').counts.slice(0, 3)).toEqual([0, 2, 1]);
    const top = (await get(`/v1/admin/analytics/top?${q}`)).json().data;
    expect(top.models.map((m: { id: string; calls: number }) => [m.id, m.calls])).toEqual([
      ['m1', 2],
      ['m2', 1],
    ]);
    const csv = await get(`/v1/admin/analytics/export?${q}&interval=week`);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.split('\r\n')[0]).toBe('bucket,infer_model,sign_in,sign_up,active_users,sign_ups');
    expect(csv.body).toContain('2030-01-07,2,3,1,2,1');
  });

  it('closed days come from the rollup, computed once; today is counted live', async () => {
    const past = (d: number, h = 10) => new Date(Date.UTC(2021, 5, d, h));
    await t.database.db
      .insert(analyticsEvents)
      .values([1, 1, 2, 3].map((d, i) => ({ id: newId(), name: 'create_model', userId: `u${i}`, properties: {}, createdAt: past(d) })));
    const q = `from=${past(1, 0).toISOString()}&to=${past(4, 0).toISOString()}&interval=day`;
    const first = (await get(`/v1/admin/analytics/events?${q}`)).json().data;
    expect(first.series).toEqual([{ name: 'create_model', counts: [2, 1, 1] }]);
    expect(first.activeUsers).toEqual([2, 1, 1]);
    const rolled = await t.database.db.select().from(analyticsRollup).where(eq(analyticsRollup.bucket, '2021-06-01'));
    expect(rolled.map((r) => [r.name, r.count]).sort()).toEqual([
      ['create_model', 2],
      ['~active', 2],
      ['~done', 0],
    ]);
    expect((await get(`/v1/admin/analytics/events?${q}`)).json().data).toEqual(first);
    // today: live counts, nothing rolled up for the open bucket
    const u = await buildUser(t.app);
    await buildProject(t.app, u.cookie, { meta: { name: 'live' } });
    const now = new Date();
    const today = (
      await get(
        `/v1/admin/analytics/events?from=${new Date(now.getTime() - 86_400_000).toISOString()}&to=${new Date(now.getTime() + 60_000).toISOString()}&interval=day`,
      )
    ).json().data;
    expect(today.series.find((s: { name: string }) => s.name === 'create_project').counts.at(-1)).toBeGreaterThanOrEqual(1);
    expect(today.signUps.at(-1)).toBeGreaterThanOrEqual(1);
    expect(
      await t.database.db
        .select()
        .from(analyticsRollup)
        .where(eq(analyticsRollup.bucket, now.toISOString().slice(0, 10))),
    ).toEqual([]);
  });
});

describe('jobs and feedback', () => {
  it('lists failed and queued jobs with attempts and last error; retries a failed one, cancels a queued one', async () => {
    const now = new Date();
    await t.database.db.insert(jobs).values([
      {
        id: 'jfailed',
        queue: 'dataset.process',
        payload: { userId: admin.user.id },
        status: 'failed',
        attempts: 3,
        maxAttempts: 3,
        lastError: 'zip is corrupt',
        createdAt: now,
        updatedAt: now,
      },
      { id: 'jqueued', queue: 'mail.send', status: 'queued', createdAt: now, updatedAt: now },
    ]);
    const list = (await get('/v1/admin/jobs')).json().data.items as Array<{
      id: string;
      status: string;
      lastError: string | null;
      attempts: number;
      canRetry: boolean;
      canCancel: boolean;
    }>;
    expect(list.find((j) => j.id === 'jfailed')).toMatchObject({
      source: 'queue',
      kind: 'dataset.process',
      status: 'failed',
      attempts: 3,
      lastError: 'zip is corrupt',
      canRetry: true,
      canCancel: false,
    });
    expect(list.find((j) => j.id === 'jqueued')).toMatchObject({ status: 'queued', canCancel: true });
    expect((await get('/v1/admin/jobs?status=failed')).json().data.items.map((j: { id: string }) => j.id)).toEqual(['jfailed']);
    expect((await post('/v1/admin/jobs/queue/jfailed/retry')).json().data).toMatchObject({ status: 'queued', attempts: 0 });
    expect((await post('/v1/admin/jobs/queue/jfailed/retry')).statusCode).toBe(409);
    expect((await post('/v1/admin/jobs/queue/jqueued/cancel')).json().data.status).toBe('cancelled');
    expect((await t.database.db.select().from(jobs).where(eq(jobs.id, 'jqueued')))[0]!.status).toBe('cancelled');
    expect((await post('/v1/admin/jobs/queue/nope/cancel')).statusCode).toBe(404);
  });

  it('jobs of both sources in keyset pages (ADR 0042): newest update first, every job once, microseconds and ties kept apart', async () => {
    await t.database.db.execute(sql`
      INSERT INTO jobs (id, queue, status, created_at, updated_at) VALUES
        ('kq_a', 'mail.send', 'failed', now(), '2031-01-01 00:00:00.000900+00'),
        ('kq_b', 'mail.send', 'queued', now(), '2031-01-01 00:00:00.000100+00'),
        ('kq_c', 'mail.send', 'running', now(), '2031-01-01 00:00:00.0005+00'),
        ('kq_done', 'mail.send', 'done', now(), '2031-01-01 00:00:00.0007+00')`);
    await t.database.db.execute(sql`
      INSERT INTO agent_jobs (id, kind, user_id, model_id, status, created_at, updated_at) VALUES
        ('ka_a', 'export', ${admin.user.id}, 'm_gone', 'queued', now(), '2031-01-01 00:00:00.0008+00'),
        ('ka_b', 'export', ${admin.user.id}, 'm_gone', 'failed', now(), '2031-01-01 00:00:00.0005+00')`);
    const total = (await get('/v1/admin/jobs?limit=200')).json().data.items.length;
    // Page sizes that put a page boundary at each place, the tie between the two sources included.
    for (const limit of [1, 2, 3]) {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(`/v1/admin/jobs?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
        expect(res.statusCode).toBe(200);
        const page = res.json().data as { items: Array<{ id: string }>; nextCursor: string | null };
        expect(page.items.length).toBeLessThanOrEqual(limit);
        seen.push(...page.items.map((j) => j.id));
        cursor = page.nextCursor;
        pages++;
      } while (cursor && pages < 100);
      // 0.9 ms, 0.8 (agent), 0.5 twice (the id decides: kq_c > ka_b), 0.1; a done job is not listed.
      expect(seen.slice(0, 5)).toEqual(['kq_a', 'ka_a', 'kq_c', 'ka_b', 'kq_b']);
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
      expect(seen).not.toContain('kq_done');
    }
    expect((await get('/v1/admin/jobs?cursor=WyJub3BlIl0')).statusCode).toBe(400);
  });

  it('feedback: ratings and reviews with the average', async () => {
    for (const [rating, review] of [
      [5, 'great'],
      [3, 'ok'],
      [4, ''],
    ] as const) {
      const u = await buildUser(t.app);
      await t.app.inject({ method: 'PUT', url: '/v1/users/me/feedback', headers: { cookie: u.cookie }, payload: { rating, review } });
    }
    const f = (await get('/v1/admin/feedback')).json().data;
    expect(f).toMatchObject({ average: 4, count: 3, distribution: [0, 0, 1, 1, 1] });
    expect(f.entries.map((e: { review: string }) => e.review).sort()).toEqual(['', 'great', 'ok']);
    expect(f.nextCursor).toBeNull();
    // Keyset pages (ADR 0042): every review once, newest update first; the summary with the first page only.
    const first = (await get('/v1/admin/feedback?limit=2')).json().data;
    expect(first).toMatchObject({ average: 4, count: 3, distribution: [0, 0, 1, 1, 1] });
    expect(first.entries).toHaveLength(2);
    const second = (await get(`/v1/admin/feedback?limit=2&cursor=${first.nextCursor}`)).json().data;
    expect(second).toMatchObject({ average: null, count: null, distribution: null, nextCursor: null });
    const paged = [...first.entries, ...second.entries].map((e: { userId: string }) => e.userId);
    expect(paged).toEqual(f.entries.map((e: { userId: string }) => e.userId));
    const updated = [...first.entries, ...second.entries].map((e: { updated: string }) => e.updated);
    expect(updated).toEqual([...updated].sort().reverse());
    expect((await get('/v1/admin/feedback?cursor=%7B')).statusCode).toBe(400);
  });
});
