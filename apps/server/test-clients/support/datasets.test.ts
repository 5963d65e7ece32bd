import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from './clients.js';
import { startServer, type SuiteServer, type SuiteUser } from './server.js';

/**
 * The generated datasets the scenarios train on pass the server's own dataset pipeline for every
 * task (uploaded through tus, processed by the real job: Ready, with the classes and splits made).
 * Needs no client, but runs with the suite (skipped where the suite has no client to train on).
 */
const found = clients();
const any = Boolean(found.legacy || found.platform);
let s: SuiteServer;
let u: SuiteUser;
beforeAll(async () => {
  if (!any) return;
  s = await startServer();
  u = await s.user('data');
});
afterAll(async () => {
  await s?.close();
});

describe.skipIf(!any)('generated datasets', () => {
  for (const task of ['detect', 'segment', 'pose', 'classify'] as const) {
    it(`${task}: Ready, with its classes and both splits`, async () => {
      const ds = await s.dataset(u, { task, images: 20, seed: 5 });
      const d = (await u.api('GET', `/v1/datasets/${ds.id}`)).data;
      expect(d.status).toBe('Ready');
      expect(d.task).toBe(task);
      expect(ds.names).toEqual(
        task === 'pose'
          ? ['blue_triangle']
          : task === 'classify'
            ? ['blue_triangle', 'green_circle', 'red_square']
            : ['red_square', 'green_circle', 'blue_triangle'],
      );
      // 4 of every 5 images train, the rest val (support/datasets.ts).
      expect(d.stats).toMatchObject({ images: 20, train: 16, val: 4, classCount: ds.names.length });
    });
  }
});
