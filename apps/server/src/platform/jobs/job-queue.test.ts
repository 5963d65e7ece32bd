import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('job queue', () => {
  it('runs a job once, retries a failing one with backoff, and gives up after maxAttempts', async () => {
    const q = t.app.ctx.jobs;
    const seen: string[] = [];
    let failures = 0;
    q.register('test-ok', async (job) => {
      seen.push(String(job.payload.n));
    });
    q.register('test-fail', async () => {
      failures += 1;
      throw new Error('boom');
    });
    await q.enqueue('test-ok', { n: 1 });
    const failId = await q.enqueue('test-fail', {}, { maxAttempts: 2 });
    await q.drain();
    expect(seen).toEqual(['1']);
    expect(failures).toBe(1);
    let row = (await t.database.db.select().from(jobs).where(eq(jobs.id, failId)))[0]!;
    expect(row).toMatchObject({ status: 'queued', attempts: 1, lastError: 'boom' });
    // not due yet: backoff
    expect(await q.drain()).toBe(0);
    t.clock.advance(5_000);
    await q.drain();
    row = (await t.database.db.select().from(jobs).where(eq(jobs.id, failId)))[0]!;
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('deduplicates by key and re-arms a finished job on re-enqueue', async () => {
    const q = t.app.ctx.jobs;
    let runs = 0;
    q.register('test-dedupe', async () => {
      runs += 1;
    });
    const a = await q.enqueue('test-dedupe', {}, { dedupeKey: 'k1' });
    const b = await q.enqueue('test-dedupe', {}, { dedupeKey: 'k1' });
    expect(b).toBe(a);
    await q.drain();
    expect(runs).toBe(1);
    const c = await q.enqueue('test-dedupe', {}, { dedupeKey: 'k1' });
    expect(c).toBe(a);
    await q.drain();
    expect(runs).toBe(2);
  });

  it('picks up a job whose worker died once its lease expires', async () => {
    const q = t.app.ctx.jobs;
    let runs = 0;
    q.register('test-lease', async () => {
      runs += 1;
    });
    const id = await q.enqueue('test-lease', {});
    // simulate a crashed worker holding the job
    await t.database.db.update(jobs).set({ status: 'running', lockedUntil: new Date(t.clock.now().getTime() + 60_000) }).where(eq(jobs.id, id));
    expect(await q.drain()).toBe(0);
    t.clock.advance(61_000);
    await q.drain();
    expect(runs).toBe(1);
  });
});
