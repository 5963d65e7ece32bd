import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { credit, hold, ledgerSums, release, settle } from '../src/modules/billing/billing.ledger.js';
import { users } from '../src/platform/db/schema.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildModel, buildUser } from './support/factories.js';

/**
 * The wallet ledger against the real database (PGlite and PostgreSQL): holds never overdraw, even
 * 100 at once; settles stay within their hold; a release returns exactly the rest; the cached
 * balance always equals the sum of the entries.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const USD = 1_000_000;
async function funded(amount: number) {
  const u = await buildUser(t.app);
  await credit(t.app.ctx, { userId: u.user.id, kind: 'top_up', amount, idempotencyKey: `seed-${u.user.id}`, paymentId: 'pi_seed' });
  return u;
}
async function wallet(userId: string) {
  const row = (await t.app.ctx.db.select().from(users).where(eq(users.id, userId)))[0]!;
  return { balance: row.walletBalance, held: row.walletHeld };
}
async function expectConsistent(userId: string) {
  expect(await ledgerSums(t.app.ctx, userId)).toEqual(await wallet(userId));
}

describe('wallet ledger', () => {
  it('100 concurrent holds on one wallet never overdraw', async () => {
    const u = await funded(10 * USD);
    // Each hold is $0.30: only 33 fit in $10.
    const results = await Promise.allSettled(
      Array.from({ length: 100 }, (_, i) => hold(t.app.ctx, { userId: u.user.id, modelId: `model-${i}`, amount: 300_000, idempotencyKey: `hold-${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected') as PromiseRejectedResult[];
    expect(ok).toHaveLength(33);
    expect(refused).toHaveLength(67);
    for (const r of refused) expect((r.reason as { code: string }).code).toBe('billing/insufficient-funds');
    expect(await wallet(u.user.id)).toEqual({ balance: 10 * USD - 33 * 300_000, held: 33 * 300_000 });
    await expectConsistent(u.user.id);
  });

  it('the same idempotency key, concurrently or again, holds once', async () => {
    const u = await funded(5 * USD);
    const many = await Promise.all(
      Array.from({ length: 20 }, () => hold(t.app.ctx, { userId: u.user.id, modelId: 'm', amount: USD, idempotencyKey: 'run-1' })),
    );
    expect(new Set(many.map((h) => h.holdId)).size).toBe(1);
    expect(await wallet(u.user.id)).toEqual({ balance: 4 * USD, held: USD });
    await expectConsistent(u.user.id);
  });

  it('settle above the hold is refused; release after settle returns exactly the rest', async () => {
    const u = await funded(20 * USD);
    const { holdId } = await hold(t.app.ctx, { userId: u.user.id, modelId: 'model-a', amount: 6 * USD, idempotencyKey: 'train-a' });
    await settle(t.app.ctx, { holdId, amount: 2 * USD, epoch: 1, idempotencyKey: 'train-a:e1' });
    // a retried epoch charges once
    await settle(t.app.ctx, { holdId, amount: 2 * USD, epoch: 1, idempotencyKey: 'train-a:e1' });
    await settle(t.app.ctx, { holdId, amount: 1.5 * USD, epoch: 2, idempotencyKey: 'train-a:e2' });
    await expect(settle(t.app.ctx, { holdId, amount: 2.5 * USD + 1, epoch: 3, idempotencyKey: 'train-a:e3' })).rejects.toMatchObject({
      code: 'billing/settle-exceeds-hold',
      statusCode: 409,
    });
    expect(await wallet(u.user.id)).toEqual({ balance: 14 * USD, held: 2.5 * USD });

    const r = await release(t.app.ctx, { holdId, idempotencyKey: 'train-a:end' });
    expect(r.released).toBe(2.5 * USD);
    expect(await wallet(u.user.id)).toEqual({ balance: 16.5 * USD, held: 0 });
    // releasing again with the same key is the same answer; a new key finds the hold closed
    expect((await release(t.app.ctx, { holdId, idempotencyKey: 'train-a:end' })).released).toBe(2.5 * USD);
    await expect(release(t.app.ctx, { holdId, idempotencyKey: 'train-a:end-2' })).rejects.toMatchObject({ code: 'billing/hold-closed' });
    await expect(settle(t.app.ctx, { holdId, amount: 1, idempotencyKey: 'late' })).rejects.toMatchObject({ code: 'billing/hold-closed' });
    await expectConsistent(u.user.id);

    // The records of spec §3 show the run, per model, with what it cost.
    const records = (await t.app.inject({ method: 'GET', url: '/v1/billing/records?modelId=model-a', headers: { cookie: u.cookie } })).json().data;
    expect(records).toEqual([
      expect.objectContaining({
        type: 'train',
        refs: { modelId: 'model-a' },
        status: 'settled',
        amounts: { held: 6 * USD, charged: 3.5 * USD, released: 2.5 * USD },
      }),
    ]);
  });

  it('a run that never started is not charged: release returns the whole hold', async () => {
    const u = await funded(3 * USD);
    const { holdId } = await hold(t.app.ctx, { userId: u.user.id, modelId: 'never', amount: 3 * USD, idempotencyKey: 'h' });
    expect(await wallet(u.user.id)).toEqual({ balance: 0, held: 3 * USD });
    await expect(hold(t.app.ctx, { userId: u.user.id, modelId: 'other', amount: 1, idempotencyKey: 'h2' })).rejects.toMatchObject({ statusCode: 402 });
    expect((await release(t.app.ctx, { holdId, idempotencyKey: 'r' })).released).toBe(3 * USD);
    expect(await wallet(u.user.id)).toEqual({ balance: 3 * USD, held: 0 });
    await expectConsistent(u.user.id);
  });

  it('concurrent settles on one hold never exceed it, and balance = sum of entries', async () => {
    const u = await funded(10 * USD);
    const { holdId } = await hold(t.app.ctx, { userId: u.user.id, modelId: 'race', amount: 5 * USD, idempotencyKey: 'race' });
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, (_, i) => settle(t.app.ctx, { holdId, amount: 200_000, epoch: i, idempotencyKey: `race:e${i}` })),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(25);
    expect(await wallet(u.user.id)).toEqual({ balance: 5 * USD, held: 0 });
    expect((await release(t.app.ctx, { holdId, idempotencyKey: 'race:end' })).released).toBe(0);
    await expectConsistent(u.user.id);
  });

  it('the database itself refuses a negative wallet', async () => {
    const u = await buildUser(t.app);
    await expect(t.app.ctx.db.update(users).set({ walletBalance: -1 }).where(eq(users.id, u.user.id))).rejects.toThrow();
  });

  it('the ledger endpoint pages newest first and names each cause', async () => {
    const u = await funded(10 * USD);
    const { holdId } = await hold(t.app.ctx, { userId: u.user.id, modelId: 'pg', amount: USD, idempotencyKey: 'pg' });
    await settle(t.app.ctx, { holdId, amount: 400_000, epoch: 7, idempotencyKey: 'pg:7' });
    const page1 = (await t.app.inject({ method: 'GET', url: '/v1/billing/ledger?limit=2', headers: { cookie: u.cookie } })).json().data;
    expect(page1.entries.map((e: { kind: string }) => e.kind)).toEqual(['settle', 'hold']);
    expect(page1.entries[0]).toMatchObject({ amount: 0, held: -400_000, charged: 400_000, cause: { modelId: 'pg', epoch: 7, holdId } });
    const page2 = (await t.app.inject({ method: 'GET', url: `/v1/billing/ledger?limit=2&before=${page1.next}`, headers: { cookie: u.cookie } })).json().data;
    expect(page2.entries).toEqual([expect.objectContaining({ kind: 'top_up', cause: expect.objectContaining({ paymentId: 'pi_seed' }) })]);
    expect(page2.next).toBeNull();
    // another user's cursor is not a way in
    const other = await buildUser(t.app);
    expect((await t.app.inject({ method: 'GET', url: `/v1/billing/ledger?before=${page1.next}`, headers: { cookie: other.cookie } })).statusCode).toBe(404);
  });

  it("the model page's cost: charged, on hold and returned for that model only", async () => {
    const u = await funded(10 * USD);
    const model = await buildModel(t.app, u.cookie, {});
    const run1 = await hold(t.app.ctx, { userId: u.user.id, modelId: model.id, amount: 2 * USD, idempotencyKey: 'c1' });
    await settle(t.app.ctx, { holdId: run1.holdId, amount: 1.25 * USD, epoch: 1, idempotencyKey: 'c1:1' });
    await release(t.app.ctx, { holdId: run1.holdId, idempotencyKey: 'c1:end' });
    const run2 = await hold(t.app.ctx, { userId: u.user.id, modelId: model.id, amount: 3 * USD, idempotencyKey: 'c2' });
    await settle(t.app.ctx, { holdId: run2.holdId, amount: 0.5 * USD, epoch: 1, idempotencyKey: 'c2:1' });
    await hold(t.app.ctx, { userId: u.user.id, modelId: 'another-model', amount: USD, idempotencyKey: 'c3' });
    const cost = (await t.app.inject({ method: 'GET', url: `/v1/billing/models/${model.id}/cost`, headers: { cookie: u.cookie } })).json().data;
    expect(cost).toMatchObject({ charged: 1.75 * USD, held: 2.5 * USD, released: 0.75 * USD });
    expect(cost.records.map((r: { status: string }) => r.status)).toEqual(['running', 'settled']);
    expect(cost.entries.every((e: { cause: { modelId: string } }) => e.cause.modelId === model.id)).toBe(true);
    expect(cost.entries.map((e: { kind: string }) => e.kind).sort()).toEqual(['hold', 'hold', 'release', 'settle', 'settle']);
  });
});
