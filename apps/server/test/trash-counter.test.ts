import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { datasets, trashTotals } from '../src/platform/db/schema.js';
import { trashRepository } from '../src/modules/trash/trash.repository.js';
import { createTestApp, FIXTURES, multipart, type TestApp } from './support/harness.js';
import { buildDataset, buildProject, buildUser } from './support/factories.js';

/**
 * The trash's first-page totals come from trash_totals (migration 0036, ADR 0042), kept by triggers:
 * after every move to or from the trash, every purge, and concurrent ones, the counter equals the sum
 * over the rows; the migration's backfill computes the same.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function upload(cookie: string, projectId: string, name: string) {
  const mp = multipart(
    { project_id: projectId, model_name: name },
    { filename: 'w.onnx', content: fs.readFileSync(path.join(FIXTURES, 'shapes3-detect.onnx')) },
  );
  const res = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie }, payload: mp.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

async function expectExact(userId: string, label: string) {
  const kept = await trashRepository.totals(t.database.db, userId);
  const scanned = await trashRepository.totalsScanned(t.database.db, userId);
  expect(kept, label).toEqual(scanned);
  return kept;
}

describe('trash totals kept by triggers', () => {
  it('stay exact through trash, restore, bytes changing in the trash, delete forever, empty trash and concurrent operations', async () => {
    const u = await buildUser(t.app);
    const h = { cookie: u.cookie };
    const call = async (method: 'DELETE' | 'POST', url: string) => {
      const res = await t.app.inject({ method, url, headers: h });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    };
    const p = await buildProject(t.app, h, { meta: { name: 'P' } });
    const m1 = await upload(u.cookie, p.id, 'm1');
    await upload(u.cookie, p.id, 'm2'); // goes to the trash with its project
    const ds = [];
    for (let i = 0; i < 6; i++) ds.push((await buildDataset(t.app, h, { meta: { name: `d${i}` }, task: 'detect' })).id);
    // Datasets with bytes, so the byte sums can be wrong.
    for (const [i, id] of ds.entries())
      await t.database.db
        .update(datasets)
        .set({ bytes: 1000 * (i + 1) })
        .where(eq(datasets.id, id));
    expect(await expectExact(u.user.id, 'empty')).toEqual({ count: 0, bytes: 0 });

    await call('DELETE', `/v1/models/${m1}`);
    const afterModel = await expectExact(u.user.id, 'a model trashed');
    expect(afterModel.count).toBe(1);
    expect(afterModel.bytes).toBeGreaterThan(0);
    await call('DELETE', `/v1/projects/${p.id}`); // takes m2 along
    expect((await expectExact(u.user.id, 'a project trashed with its model')).count).toBe(3);
    await call('DELETE', `/v1/datasets/${ds[0]}`);
    await call('DELETE', `/v1/datasets/${ds[1]}`);
    expect(await expectExact(u.user.id, 'two datasets trashed')).toEqual({ count: 5, bytes: afterModel.bytes * 2 + 3000 + (await imageBytes(p.id)) });
    // The page's first-page totals are the counter's.
    const first = (await t.app.inject({ method: 'GET', url: '/v1/trash?limit=1', headers: h })).json().data;
    expect({ count: first.count, bytes: first.bytes }).toEqual(await trashRepository.totals(t.database.db, u.user.id));

    // bytes that change while in the trash move the total; a live row's change does not
    await t.database.db.update(datasets).set({ bytes: 7777 }).where(eq(datasets.id, ds[0]!));
    await t.database.db.update(datasets).set({ bytes: 5 }).where(eq(datasets.id, ds[5]!));
    await expectExact(u.user.id, 'bytes changed');

    await call('POST', `/v1/trash/project/${p.id}/restore`);
    expect((await expectExact(u.user.id, 'project restored')).count).toBe(3);
    await call('POST', `/v1/trash/dataset/${ds[1]}/restore`);
    await expectExact(u.user.id, 'dataset restored');
    await call('DELETE', `/v1/trash/dataset/${ds[0]}`);
    expect((await expectExact(u.user.id, 'dataset deleted forever')).count).toBe(1);

    // concurrent moves to and from the trash of one owner
    await Promise.all(ds.slice(1).map((id) => call('DELETE', `/v1/datasets/${id}`)));
    await expectExact(u.user.id, 'concurrent trash');
    await Promise.all([...ds.slice(1, 4).map((id) => call('POST', `/v1/trash/dataset/${id}/restore`)), call('DELETE', `/v1/trash/dataset/${ds[4]}`)]);
    expect((await expectExact(u.user.id, 'concurrent restore and purge')).count).toBe(2);

    await call('DELETE', '/v1/trash');
    expect(await expectExact(u.user.id, 'trash emptied')).toEqual({ count: 0, bytes: 0 });
  });

  it('the migration backfill computes what the triggers keep', async () => {
    const a = await buildUser(t.app);
    const b = await buildUser(t.app);
    for (const [u, n] of [
      [a, 3],
      [b, 2],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const d = await buildDataset(t.app, { cookie: u.cookie }, { meta: { name: `b${i}` }, task: 'detect' });
        await t.database.db
          .update(datasets)
          .set({ bytes: 10 + i })
          .where(eq(datasets.id, d.id));
        expect((await t.app.inject({ method: 'DELETE', url: `/v1/datasets/${d.id}`, headers: { cookie: u.cookie } })).statusCode).toBeLessThan(300);
      }
    }
    const before = [await trashRepository.totals(t.database.db, a.user.id), await trashRepository.totals(t.database.db, b.user.id)];
    expect(before).toEqual([
      { count: 3, bytes: 33 },
      { count: 2, bytes: 21 },
    ]);
    const migration = fs.readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '../src/platform/db/migrations/0036_trash_totals.sql'), 'utf8');
    const backfill = migration.slice(migration.indexOf('INSERT INTO trash_totals (user_id, count, bytes)\nSELECT'));
    await t.database.db.delete(trashTotals);
    await t.database.db.execute(sql.raw(backfill));
    expect([await trashRepository.totals(t.database.db, a.user.id), await trashRepository.totals(t.database.db, b.user.id)]).toEqual(before);
  });
});

async function imageBytes(projectId: string) {
  const r = (await t.database.db.execute(sql`SELECT image_bytes FROM projects WHERE id = ${projectId}`)) as unknown as { rows: Array<{ image_bytes: string }> };
  return Number(r.rows[0]!.image_bytes);
}
