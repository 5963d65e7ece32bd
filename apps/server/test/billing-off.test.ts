import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { analyticsEvents } from '../src/platform/db/schema.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * Billing off (no STRIPE_SECRET_KEY): the summary says so, nothing pretends to take money; admins
 * set plans and credit wallets by hand (who and why recorded); plan limits are admin-editable and
 * drive the quotas through one function.
 */
let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await buildUser(t.app); // the first account of a fresh server is its admin
  expect(admin.user.roles).toContain('admin');
});
afterAll(async () => {
  await t.close();
});

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, cookie: string, payload?: object) => t.app.inject({ method, url, headers: { cookie }, payload });

describe('billing off', () => {
  it('the summary says billing is off; checkout, portal, top-up and history answer billing/disabled', async () => {
    const u = await buildUser(t.app);
    const s = (await call('GET', '/v1/billing', u.cookie)).json().data;
    expect(s).toMatchObject({
      enabled: false,
      plan: 'free',
      subscription: null,
      wallet: { balance: 0, held: 0 },
      abilities: { upgrade: false, portal: false, topUp: false, history: false, cancel: false },
    });
    for (const [url, body] of [
      ['/v1/billing/checkout/pro', { interval: 'month' }],
      ['/v1/billing/portal', undefined],
      ['/v1/billing/checkout/top-up', { amount: 10 }],
    ] as const) {
      const res = await call('POST', url, u.cookie, body);
      expect(res.statusCode, url).toBe(409);
      expect(res.json().error.code).toBe('billing/disabled');
    }
    expect((await call('GET', '/v1/billing/history', u.cookie)).json().error.code).toBe('billing/disabled');
    expect((await t.app.inject({ method: 'GET', url: '/v1/billing' })).statusCode).toBe(401);
    // the webhook endpoint does not exist without Stripe
    expect((await t.app.inject({ method: 'POST', url: '/v1/billing/stripe/webhook', payload: { id: 'evt_1' } })).statusCode).toBe(404);
  });

  it('an admin sets a plan by hand (who and why); the user is pro at once; only admins may', async () => {
    const u = await buildUser(t.app);
    expect((await call('POST', `/v1/admin/billing/users/${u.user.id}/plan`, u.cookie, { plan: 'pro', reason: 'self-service?' })).statusCode).toBe(403);
    const res = await call('POST', `/v1/admin/billing/users/${u.user.id}/plan`, admin.cookie, { plan: 'pro', reason: 'Research grant 2026' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ plan: 'pro', subscription: { source: 'admin', status: 'active', plan: 'pro' } });
    const me = (await call('GET', '/v1/users/me', u.cookie)).json().data;
    expect(me.plan).toBe('pro');
    expect((await call('GET', '/v1/billing', u.cookie)).json().data).toMatchObject({ plan: 'pro', enabled: false, subscription: { source: 'admin' } });
    const ev = await t.app.ctx.db
      .select()
      .from(analyticsEvents)
      .where(and(eq(analyticsEvents.userId, u.user.id), eq(analyticsEvents.name, 'update_plan')));
    expect(ev.map((e) => e.properties)).toEqual([
      expect.objectContaining({ from: 'free', to: 'pro', source: 'admin', by: admin.user.id, reason: 'Research grant 2026' }),
    ]);
    // and back to free
    await call('POST', `/v1/admin/billing/users/${u.user.id}/plan`, admin.cookie, { plan: 'free', reason: 'Grant ended' });
    expect((await call('GET', '/v1/users/me', u.cookie)).json().data.plan).toBe('free');
  });

  it('an admin credits a wallet by hand: a ledger entry naming who and why', async () => {
    const u = await buildUser(t.app);
    expect((await call('POST', `/v1/admin/billing/users/${u.user.id}/credit`, admin.cookie, { amount: 25, reason: '' })).statusCode).toBe(400);
    const res = await call('POST', `/v1/admin/billing/users/${u.user.id}/credit`, admin.cookie, { amount: 25.5, reason: 'Goodwill for the outage' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.wallet).toEqual({ balance: 25_500_000, held: 0 });
    const ledger = (await call('GET', '/v1/billing/ledger', u.cookie)).json().data.entries;
    expect(ledger).toEqual([
      expect.objectContaining({
        kind: 'admin_credit',
        amount: 25_500_000,
        balanceAfter: 25_500_000,
        cause: expect.objectContaining({ actor: { uid: admin.user.id, username: admin.user.username }, reason: 'Goodwill for the outage' }),
      }),
    ]);
    expect((await call('POST', `/v1/admin/billing/users/${u.user.id}/credit`, u.cookie, { amount: 1000, reason: 'free money' })).statusCode).toBe(403);
  });

  it('plan limits: defaults, admin overrides, and the storage and inference quotas follow them', async () => {
    const u = await buildUser(t.app);
    const plans = (await call('GET', '/v1/admin/billing/plans', admin.cookie)).json().data;
    expect(plans.map((p: { plan: string }) => p.plan)).toEqual(['free', 'pro', 'enterprise']);
    expect(plans[0]).toMatchObject({ limits: { storageBytes: 20 * 1024 ** 3, inferencePerHour: 100, teams: false }, overridden: [] });
    expect((await call('GET', '/v1/users/me/storage', u.cookie)).json().data.limit).toBe(20 * 1024 ** 3);

    const res = await call('PATCH', '/v1/admin/billing/plans/free', admin.cookie, { storageBytes: 5 * 1024 ** 3, inferencePerMonth: 50 });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      limits: { storageBytes: 5 * 1024 ** 3, inferencePerMonth: 50, inferencePerHour: 100 },
      overridden: ['storageBytes', 'inferencePerMonth'],
    });
    expect((await call('GET', '/v1/users/me/storage', u.cookie)).json().data.limit).toBe(5 * 1024 ** 3);
    expect((await call('GET', '/v1/users/me/inference-usage', u.cookie)).json().data.limits).toEqual({ perHour: 100, perMonth: 50 });
    expect((await call('GET', '/v1/billing', u.cookie)).json().data.limits.storageBytes).toBe(5 * 1024 ** 3);
    // null puts the default back
    await call('PATCH', '/v1/admin/billing/plans/free', admin.cookie, { storageBytes: null, inferencePerMonth: null });
    expect((await call('GET', '/v1/users/me/storage', u.cookie)).json().data.limit).toBe(20 * 1024 ** 3);
    expect((await call('PATCH', '/v1/admin/billing/plans/free', u.cookie, { storageBytes: 1 })).statusCode).toBe(403);
  });

  it('the plan model count holds: the limit is answered with its code, also under 10 concurrent creations', async () => {
    const u = await buildUser(t.app);
    expect((await call('PATCH', '/v1/admin/billing/plans/pro', admin.cookie, { models: 3 })).statusCode).toBe(200);
    expect((await call('POST', `/v1/admin/billing/users/${u.user.id}/plan`, admin.cookie, { plan: 'pro', reason: 'model limit test' })).statusCode).toBe(200);
    const first = await call('POST', '/v1/models', u.cookie, { meta: { name: 'one' } });
    expect(first.statusCode).toBe(201);
    const racing = await Promise.all(Array.from({ length: 10 }, (_, i) => call('POST', '/v1/models', u.cookie, { meta: { name: `race ${i}` } })));
    expect(
      racing.filter((r) => r.statusCode === 201),
      JSON.stringify(racing.map((r) => r.json())),
    ).toHaveLength(2);
    const refused = racing.filter((r) => r.statusCode !== 201);
    expect(refused).toHaveLength(8);
    for (const r of refused) expect(r.json()).toMatchObject({ error: { code: 'model/limit-reached', message: expect.stringContaining('3 models') } });
    // A model in the trash frees its slot.
    const id = first.json().data.id;
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/models/${id}`, headers: { cookie: u.cookie } })).statusCode).toBe(200);
    expect((await call('POST', '/v1/models', u.cookie, { meta: { name: 'after trash' } })).statusCode).toBe(201);
    await call('PATCH', '/v1/admin/billing/plans/pro', admin.cookie, { models: null });
  });

  it('a model’s cost is its owner’s only', async () => {
    const u = await buildUser(t.app);
    const model = (await call('POST', '/v1/models', u.cookie, {})).json().data;
    const own = await call('GET', `/v1/billing/models/${model.id}/cost`, u.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.json().data).toMatchObject({ modelId: model.id, charged: 0, held: 0, released: 0, records: [], entries: [] });
    const other = await buildUser(t.app);
    expect((await call('GET', `/v1/billing/models/${model.id}/cost`, other.cookie)).statusCode).toBe(404);
  });

  it('every billing route is in the generated OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json();
    for (const path of [
      '/v1/billing',
      '/v1/billing/ledger',
      '/v1/billing/checkout/pro',
      '/v1/billing/portal',
      '/v1/billing/checkout/top-up',
      '/v1/billing/history',
      '/v1/billing/stripe/webhook',
      '/v1/admin/billing/plans/{plan}',
      '/v1/admin/billing/users/{id}/credit',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
    expect(Object.keys(doc.paths['/v1/admin/billing/plans/{plan}'].patch.requestBody.content['application/json'].schema.properties)).toContain('storageBytes');
  });
});
