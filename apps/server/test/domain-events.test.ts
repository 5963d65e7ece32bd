import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainEvents, deliverAfterCommit, type DomainEvent } from '../src/platform/events/domain-events.js';
import { createTestApp, type TestApp } from './support/harness.js';

/** Domain events after commit (ADR 0031), on the app's real database handle. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const warnings: unknown[] = [];
const log = { warn: (obj: unknown) => void warnings.push(obj) };

function hub() {
  const events = new DomainEvents(log, t.app.ctx.db);
  const heard: string[] = [];
  events.on('project.created', (e) => void heard.push(`typed:${e.data.projectId}`));
  events.on((e: DomainEvent) => void heard.push(`all:${e.name}`));
  return { events, heard };
}
const created = (projectId: string) => ({ projectId, actorId: 'u1' });

describe('domain events', () => {
  it('outside a transaction: delivered before emit resolves, to typed and catch-all listeners in order', async () => {
    const { events, heard } = hub();
    await events.emit('project.created', 'u1', created('p1'));
    await events.emit('project.deleted', 'u1', created('p1'));
    expect(heard).toEqual(['typed:p1', 'all:project.created', 'all:project.deleted']);
  });

  it('inside a transaction: held back until it commits, then delivered before transaction() resolves', async () => {
    const { events, heard } = hub();
    const seenInside: string[][] = [];
    await t.app.ctx.db.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      await events.emit('project.created', 'u1', created('p2'));
      seenInside.push([...heard]);
    });
    expect(seenInside).toEqual([[]]);
    expect(heard).toEqual(['typed:p2', 'all:project.created']);
  });

  it('a rolled back transaction drops its events', async () => {
    const { events, heard } = hub();
    await expect(
      t.app.ctx.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await events.emit('project.created', 'u1', created('p3'));
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    await events.emit('project.deleted', 'u1', created('p4'));
    expect(heard).toEqual(['all:project.deleted']);
  });

  it('a failing listener is logged; the others still hear the event and emit does not throw', async () => {
    const { events, heard } = hub();
    events.on('project.created', () => {
      throw new Error('listener broke');
    });
    events.on('project.created', (e) => void heard.push(`after:${e.data.projectId}`));
    warnings.length = 0;
    await events.emit('project.created', 'u1', created('p5'));
    expect(heard).toEqual(['typed:p5', 'all:project.created', 'after:p5']);
    expect(warnings).toEqual([expect.objectContaining({ event: 'project.created' })]);
  });

  it('on() returns its own removal', async () => {
    const { events, heard } = hub();
    const off = events.on('project.deleted', () => void heard.push('removed'));
    off();
    await events.emit('project.deleted', 'u1', created('p6'));
    expect(heard).toEqual(['all:project.deleted']);
  });

  it('a transaction opened inside another hands its events to the outer one, which may still roll back', async () => {
    // A handle that runs the callback as its "transaction": enough to exercise the nesting rules.
    const db = { transaction: async <T>(fn: () => Promise<T>) => fn() };
    deliverAfterCommit(db);
    deliverAfterCommit(db); // wrapping twice changes nothing
    const events = new DomainEvents(log);
    const heard: string[] = [];
    events.on((e) => void heard.push(e.name));

    await db.transaction(async () => {
      await db.transaction(async () => events.emit('project.created', 'u1', created('n1')));
      expect(heard).toEqual([]);
      await events.emit('project.updated', 'u1', created('n1'));
    });
    expect(heard).toEqual(['project.created', 'project.updated']);

    heard.length = 0;
    await expect(
      db.transaction(async () => {
        await db.transaction(async () => events.emit('project.created', 'u1', created('n2')));
        throw new Error('outer rolls back');
      }),
    ).rejects.toThrow('outer rolls back');
    await db.transaction(async () => {
      const inner = db.transaction(async () => {
        await events.emit('project.deleted', 'u1', created('n3'));
        throw new Error('inner rolls back');
      });
      await expect(inner).rejects.toThrow('inner rolls back');
    });
    expect(heard).toEqual([]);
  });
});
