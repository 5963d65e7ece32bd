import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../db/schema.js';
import { JobQueue } from './job-queue.js';
import { createTestApp, type TestApp } from '../../../test/support/harness.js';

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
    await t.database.db
      .update(jobs)
      .set({ status: 'running', lockedUntil: new Date(t.clock.now().getTime() + 60_000) })
      .where(eq(jobs.id, id));
    expect(await q.drain()).toBe(0);
    t.clock.advance(61_000);
    await q.drain();
    expect(runs).toBe(1);
  });

  /** A handler that waits at a gate until the test opens it. */
  const gated = () => {
    let open!: () => void;
    let started!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const running = new Promise<void>((r) => (started = r));
    return { gate, running, open: () => open(), started: () => started() };
  };

  // ADR 0025: an instance that stalled past its lease (SIGSTOP, a long GC pause) and woke up used to
  // report progress and mark done a job another instance had taken over and was still running.
  it('refuses the progress and completion of an attempt that lost its lease to another instance', async () => {
    const a = new JobQueue(t.app.ctx, { leaseMs: 1000, heartbeatMs: 3_600_000 });
    const b = new JobQueue(t.app.ctx, { leaseMs: 60_000, heartbeatMs: 3_600_000 });
    const ga = gated();
    const gb = gated();
    a.register('test-fence', async (_job, helpers) => {
      ga.started();
      await ga.gate;
      await helpers.progress({ by: 'a' });
    });
    b.register('test-fence', async (_job, helpers) => {
      gb.started();
      await helpers.progress({ by: 'b' });
      await gb.gate;
    });
    const id = await a.enqueue('test-fence', {});
    const runA = a.drain();
    await ga.running;
    t.clock.advance(2_000); // a's lease ran out while it stalled
    const runB = b.drain();
    await gb.running;
    ga.open(); // a wakes up, reports progress and returns
    await runA;
    let row = (await t.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
    expect(row.status).toBe('running'); // b still runs it: a's completion was refused
    expect(row.progress).toEqual({ by: 'b' });
    expect(a.refusedWrites).toBe(1);
    gb.open();
    await runB;
    row = (await t.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
    expect(row).toMatchObject({ status: 'done', attempts: 2 });
    expect(b.refusedWrites).toBe(0);
  });

  it('refuses the results of an attempt that lost its lease and keeps those of the holder', async () => {
    const a = new JobQueue(t.app.ctx, { leaseMs: 1000, heartbeatMs: 3_600_000 });
    const b = new JobQueue(t.app.ctx, { leaseMs: 60_000, heartbeatMs: 3_600_000 });
    const ga = gated();
    const written: string[] = [];
    let refusal: unknown = null;
    a.register('test-fence-results', async (_job, helpers) => {
      ga.started();
      await ga.gate;
      try {
        await helpers.fenced(async () => written.push('a'));
      } catch (err) {
        refusal = err;
        throw err;
      }
    });
    b.register('test-fence-results', async (_job, helpers) => {
      await helpers.fenced(async () => written.push('b'));
    });
    const id = await a.enqueue('test-fence-results', {});
    const runA = a.drain();
    await ga.running;
    t.clock.advance(2_000);
    await b.drain();
    ga.open();
    await runA;
    expect(written).toEqual(['b']);
    expect((refusal as Error | null)?.name).toBe('LeaseLostError');
    const row = (await t.database.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
    // The refused attempt recorded no failure and no retry over the holder's completion.
    expect(row).toMatchObject({ status: 'done', lastError: null });
  });
});
