import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { analyticsEvents, billingSubscriptions, stripeEvents, users } from '../src/platform/db/schema.js';
import { FAKE_PRICES, signStripePayload, startFakeStripe, stripeEnv, type FakeStripe } from './support/fake-stripe.js';
import { openTestDatabase, TestClock, testConfig } from './support/harness.js';
import { buildUser } from './support/factories.js';

/**
 * Billing with Stripe on: the official `stripe` package talks to a local fake Stripe over HTTP, and
 * the fake's signed webhooks come back to this server over HTTP.
 */
let fake: FakeStripe;
let app: FastifyInstance;
let drop: () => Promise<void>;
let dataDir: string;
const logs: Array<Record<string, unknown>> = [];

beforeAll(async () => {
  fake = await startFakeStripe();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-billing-'));
  const db = await openTestDatabase();
  drop = db.drop;
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
      cb();
    },
  });
  app = await buildApp({
    config: testConfig(dataDir, { JOBS_ENABLED: 'false', ...stripeEnv(fake) }),
    database: db.database,
    clock: new TestClock(),
    logger: { level: 'info', stream },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  fake.webhookUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/v1/billing/stripe/webhook`;
  // walletTopUp is off by default (spec §9): this server turns it on.
  await app.ctx.db.execute(
    (await import('drizzle-orm')).sql`INSERT INTO feature_flags (name, enabled) VALUES ('walletTopUp', true) ON CONFLICT (name) DO UPDATE SET enabled = true`,
  );
});
afterAll(async () => {
  await app.close();
  await drop();
  await fake.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const call = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) => app.inject({ method, url, headers: { cookie }, payload });
const summary = async (cookie: string) => (await call('GET', '/v1/billing', cookie)).json().data;
const me = async (id: string) => (await app.ctx.db.select().from(users).where(eq(users.id, id)))[0]!;

/** A user who went through Checkout for pro: returns the user, cookie and Stripe subscription id. */
async function proUser(interval: 'month' | 'year' = 'month') {
  const u = await buildUser(app);
  const res = await call('POST', '/v1/billing/checkout/pro', u.cookie, { interval });
  expect(res.statusCode).toBe(200);
  const session = fake.lastSession()!;
  expect(res.json().data.url).toBe(session.url);
  const deliveries = await fake.completeCheckout(session.id as string);
  expect(deliveries.map((d) => [d.type, d.status])).toEqual([
    ['customer.subscription.created', 200],
    ['invoice.paid', 200],
    ['checkout.session.completed', 200],
  ]);
  return { ...u, subscriptionId: session.subscription as string };
}

describe('checkout → webhook → plan', () => {
  it('a free user upgrades to pro through Checkout; the plan, customer, renewal date and analytics follow', async () => {
    const u = await buildUser(app);
    const before = await summary(u.cookie);
    expect(before).toMatchObject({
      enabled: true,
      plan: 'free',
      subscription: null,
      abilities: { upgrade: true, portal: false, topUp: false, history: false },
    });

    const res = await call('POST', '/v1/billing/checkout/pro', u.cookie, { interval: 'year' });
    expect(res.statusCode).toBe(200);
    const session = fake.lastSession()!;
    // The wire: a customer made for this user, the yearly price, the user as client_reference_id.
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!;
    expect(created.body).toMatchObject({
      mode: 'subscription',
      client_reference_id: u.user.id,
      line_items: [{ price: FAKE_PRICES.proYearly.id, quantity: '1' }],
    });
    expect(fake.customers.get(session.customer as string)).toMatchObject({ email: u.email, metadata: { userId: u.user.id } });
    expect((await me(u.user.id)).plan).toBe('free');

    await fake.completeCheckout(session.id as string);
    const after = await summary(u.cookie);
    expect(after.plan).toBe('pro');
    expect(after.subscription).toMatchObject({ status: 'active', source: 'stripe', interval: 'year', cancelAtPeriodEnd: false });
    expect(new Date(after.subscription.currentPeriodEnd).getTime()).toBeGreaterThan(Date.now() + 300 * 86400_000);
    expect(after.abilities).toMatchObject({ upgrade: false, portal: true, history: true, cancel: true, topUp: true });
    expect((await me(u.user.id)).paymentCustomerId).toBe(session.customer);
    const plans = await app.ctx.db
      .select()
      .from(analyticsEvents)
      .where(and(eq(analyticsEvents.userId, u.user.id), eq(analyticsEvents.name, 'update_plan')));
    expect(plans.map((p) => p.properties)).toEqual([expect.objectContaining({ from: 'free', to: 'pro', source: 'stripe' })]);
    // A second checkout for pro is refused: manage it in the portal.
    expect((await call('POST', '/v1/billing/checkout/pro', u.cookie, { interval: 'month' })).statusCode).toBe(403);
  });

  it('portal: a session for the customer, returning to the billing tab', async () => {
    const u = await proUser();
    const res = await call('POST', '/v1/billing/portal', u.cookie);
    expect(res.statusCode).toBe(200);
    const portal = [...fake.portalSessions.values()].at(-1)!;
    expect(res.json().data.url).toBe(portal.url);
    expect(portal.return_url).toMatch(/\/settings\?tab=billing$/);
    expect(portal.customer).toBe((await me(u.user.id)).paymentCustomerId);
    // A free user without a customer has no portal.
    const free = await buildUser(app);
    expect((await call('POST', '/v1/billing/portal', free.cookie)).statusCode).toBe(403);
  });

  it('cancel at period end keeps pro until the period ends, then free', async () => {
    const u = await proUser();
    const res = await call('POST', '/v1/billing/subscription', u.cookie, { cancelAtPeriodEnd: true });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ plan: 'pro', subscription: { cancelAtPeriodEnd: true, status: 'active' } });
    expect(fake.subscriptions.get(u.subscriptionId)!.cancel_at_period_end).toBe(true);
    const [d] = await fake.endPeriod(u.subscriptionId);
    expect(d).toMatchObject({ type: 'customer.subscription.deleted', status: 200 });
    const s = await summary(u.cookie);
    expect(s.plan).toBe('free');
    expect(s.subscription).toBeNull();
    expect(s.abilities.upgrade).toBe(true);
  });

  it('past_due stays pro; unpaid is free; paid again is pro', async () => {
    const u = await proUser();
    await fake.setSubscriptionStatus(u.subscriptionId, 'past_due');
    expect((await summary(u.cookie)).plan).toBe('pro');
    await fake.setSubscriptionStatus(u.subscriptionId, 'unpaid');
    expect((await summary(u.cookie)).plan).toBe('free');
    expect((await me(u.user.id)).plan).toBe('free');
    await fake.setSubscriptionStatus(u.subscriptionId, 'active');
    expect((await summary(u.cookie)).plan).toBe('pro');
  });
});

describe('webhooks', () => {
  it('a replayed webhook changes nothing', async () => {
    const u = await proUser();
    await fake.setSubscriptionStatus(u.subscriptionId, 'unpaid');
    const unpaid = fake.deliveries.at(-1)!;
    await fake.setSubscriptionStatus(u.subscriptionId, 'active');
    expect((await summary(u.cookie)).plan).toBe('pro');
    // Replaying the older "unpaid" event must not drop the user to free.
    const [again] = await fake.resend(unpaid.eventId);
    expect(again!.status).toBe(200);
    expect(JSON.parse(again!.body)).toMatchObject({ duplicate: true });
    expect((await summary(u.cookie)).plan).toBe('pro');
    // A replayed top-up credits once.
    await call('POST', '/v1/billing/checkout/top-up', u.cookie, { amount: 12.5 });
    const [paid] = await fake.completeCheckout(fake.lastSession()!.id as string);
    await fake.resend(paid!.eventId);
    await fake.resend(paid!.eventId);
    expect((await summary(u.cookie)).wallet.balance).toBe(12_500_000);
  });

  it('a forged signature is refused with 400 and logged; nothing is recorded', async () => {
    const u = await proUser();
    const payload = JSON.stringify({
      id: 'evt_forged_1',
      object: 'event',
      type: 'customer.subscription.deleted',
      created: Math.floor(Date.now() / 1000),
      data: { object: fake.subscriptions.get(u.subscriptionId) },
    });
    const res = await fetch(fake.webhookUrl!, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signStripePayload(payload, 'whsec_not_the_secret') },
      body: payload,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('billing/bad-signature');
    const unsigned = await fetch(fake.webhookUrl!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: payload });
    expect(unsigned.status).toBe(400);
    expect(logs.filter((l) => l.msg === 'stripe webhook refused: signature check failed').length).toBeGreaterThanOrEqual(2);
    expect(await app.ctx.db.select().from(stripeEvents).where(eq(stripeEvents.id, 'evt_forged_1'))).toEqual([]);
    expect((await summary(u.cookie)).plan).toBe('pro');
  });

  it('a webhook for an unknown customer is recorded, not crashed', async () => {
    const [d] = await fake.send('invoice.payment_failed', {
      id: 'in_nobody',
      object: 'invoice',
      customer: 'cus_nobody',
      amount_due: 2900,
      currency: 'usd',
      created: 1,
    });
    expect(d!.status).toBe(200);
    const [row] = await app.ctx.db.select().from(stripeEvents).where(eq(stripeEvents.id, d!.eventId));
    expect(row).toMatchObject({ type: 'invoice.payment_failed', outcome: 'unknown-customer', userId: null });
    const [s] = await fake.send('customer.subscription.updated', {
      id: 'sub_nobody',
      object: 'subscription',
      customer: 'cus_nobody',
      status: 'active',
      cancel_at_period_end: false,
      created: 1,
      start_date: 1,
      metadata: {},
      items: { data: [{ price: { id: FAKE_PRICES.proMonthly.id, recurring: { interval: 'month' } }, current_period_end: 2 }] },
    });
    expect(s!.status).toBe(200);
    expect(logs.some((l) => l.msg === 'stripe webhook for an unknown customer recorded')).toBe(true);
    expect(await app.ctx.db.select().from(billingSubscriptions).where(eq(billingSubscriptions.id, 'sub_nobody'))).toEqual([]);
  });
});

describe('top-up and history', () => {
  it('top-up: $5–$1,000, pro only, lands in the ledger with its payment and model', async () => {
    const free = await buildUser(app);
    expect((await call('POST', '/v1/billing/checkout/top-up', free.cookie, { amount: 20 })).statusCode).toBe(403);

    const u = await proUser();
    expect((await call('POST', '/v1/billing/checkout/top-up', u.cookie, { amount: 4.99 })).statusCode).toBe(400);
    expect((await call('POST', '/v1/billing/checkout/top-up', u.cookie, { amount: 1000.01 })).statusCode).toBe(400);
    const model = (await call('POST', '/v1/models', u.cookie, { meta: { name: 'm' } })).json().data;
    const other = await buildUser(app);
    const foreign = (await call('POST', '/v1/models', other.cookie, {})).json().data;
    expect((await call('POST', '/v1/billing/checkout/top-up', u.cookie, { amount: 50, modelId: foreign.id })).statusCode).toBe(404);

    const res = await call('POST', '/v1/billing/checkout/top-up', u.cookie, { amount: 50, modelId: model.id });
    expect(res.statusCode).toBe(200);
    const session = fake.lastSession()!;
    expect(session).toMatchObject({ mode: 'payment', line_items: [{ price_data: { unit_amount: '5000', currency: 'usd' } }] });
    expect((await summary(u.cookie)).wallet.balance).toBe(0);
    await fake.completeCheckout(session.id as string);
    expect((await summary(u.cookie)).wallet).toEqual({ balance: 50_000_000, held: 0 });
    const ledger = (await call('GET', '/v1/billing/ledger', u.cookie)).json().data;
    expect(ledger.entries).toEqual([
      expect.objectContaining({
        kind: 'top_up',
        amount: 50_000_000,
        balanceAfter: 50_000_000,
        cause: expect.objectContaining({ paymentId: session.payment_intent, modelId: model.id }),
      }),
    ]);
  });

  it('history: the customer’s invoices newest first, paginated with after', async () => {
    const u = await proUser();
    await fake.endPeriod(u.subscriptionId);
    await fake.endPeriod(u.subscriptionId);
    const first = (await call('GET', '/v1/billing/history?limit=2', u.cookie)).json().data;
    expect(first.invoices).toHaveLength(2);
    expect(first.hasMore).toBe(true);
    expect(first.invoices[0].description).toBe('Sightline Pro renewal');
    expect(first.invoices[0].amount).toBe(29_000_000);
    expect(first.invoices[0].hostedInvoiceUrl).toContain('/invoices/');
    const second = (await call('GET', `/v1/billing/history?limit=2&after=${first.next}`, u.cookie)).json().data;
    expect(second.invoices.map((i: { description: string }) => i.description)).toEqual(['Sightline Pro (monthly)']);
    expect(second.hasMore).toBe(false);
    // Free and never a customer: no history.
    const free = await buildUser(app);
    expect((await call('GET', '/v1/billing/history', free.cookie)).statusCode).toBe(403);
  });

  it('Stripe errors become the spec sentence (and are logged)', async () => {
    const u = await proUser();
    await app.ctx.db.update(users).set({ paymentCustomerId: 'cus_gone' }).where(eq(users.id, u.user.id));
    const res = await call('POST', '/v1/billing/portal', u.cookie);
    expect(res.statusCode).toBe(502);
    expect(res.json().error).toMatchObject({ code: 'billing/provider-error', message: 'Something went wrong. Please try again later.' });
    expect(logs.some((l) => l.msg === 'stripe portal failed')).toBe(true);
  });
});
