import { CLOUD_MIN_WALLET_MICRO } from '@sightline/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerSums } from '../src/modules/billing/billing.ledger.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';
import { shapes3Dataset } from './support/wire.js';
import { enableCloud, setPlanAndWallet, walletOf } from './support/agents.js';

/**
 * Cloud training's wallet minimum is checked by the ledger's hold, under the wallet's row lock,
 * so starts in parallel admit exactly as many runs as starts one after another (ADR 0024).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await buildUser(t.app); // the first account is an admin
  const gpu = await t.app.inject({
    method: 'PUT',
    url: '/v1/admin/gpu-types',
    headers: { cookie: admin.cookie },
    payload: { id: 'rtx-4090', name: 'RTX 4090', match: 'RTX 4090', hourlyRateMicro: 3_600_000, imagesPerSecond: 1 },
  });
  expect(gpu.statusCode).toBe(200);
  await enableCloud(t);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const api = (method: 'GET' | 'POST', url: string, cookie: string, payload?: object) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
const body = { gpuType: 'rtx-4090', epochs: 1 };

/** A pro user with `runs` untrained models on one dataset; the wallet covers the minimum plus two estimates, less one micro-dollar. */
async function userWithModels(runs: number) {
  const user = await buildUser(t.app);
  await setPlanAndWallet(t, user.user.id, 'pro', 0);
  const ds = await shapes3Dataset(t, user.user.id, `shapes-${user.user.username.toLowerCase()}`);
  const project = (await api('POST', '/v1/projects', user.cookie, { name: 'Cloud' })).json().data;
  const models: string[] = [];
  for (let i = 0; i < runs; i++) {
    const m = await api('POST', '/v1/models', user.cookie, {
      meta: { name: `run ${i}` },
      projectId: project.id,
      dataset: { id: ds.id },
      lineage: { architecture: { name: 'yolo11n' } },
    });
    expect(m.statusCode).toBe(201);
    models.push(m.json().data.id as string);
  }
  await setPlanAndWallet(t, user.user.id, 'pro', CLOUD_MIN_WALLET_MICRO + 1);
  const estimate = (await api('POST', `/v1/models/${models[0]}/cloud/estimate`, user.cookie, body)).json().data.estimateMicro as number;
  expect(estimate).toBeGreaterThan(0);
  await setPlanAndWallet(t, user.user.id, 'pro', CLOUD_MIN_WALLET_MICRO + 2 * estimate - 1);
  return { user, models, estimate };
}

describe('the cloud-training wallet minimum inside the hold (ADR 0024)', () => {
  it('one after another: two runs start, the third is refused with 402 naming the minimum', async () => {
    const { user, models } = await userWithModels(3);
    const statuses: number[] = [];
    for (const id of models) statuses.push((await api('POST', `/v1/models/${id}/cloud/train`, user.cookie, body)).statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(2);
    expect(statuses[2]).toBe(402);
  });

  it('in parallel: still exactly two of six start, the others 402; the balance never drops below the minimum before a hold', async () => {
    const { user, models, estimate } = await userWithModels(6);
    const answers = await Promise.all(models.map((id) => api('POST', `/v1/models/${id}/cloud/train`, user.cookie, body)));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, 201, 402, 402, 402, 402]);
    for (const a of answers.filter((x) => x.statusCode === 402)) expect(a.json().error.message).toMatch(/\$5\.00|estimate/);
    expect(await walletOf(t, user.user.id)).toBe(CLOUD_MIN_WALLET_MICRO - 1);
    expect(await ledgerSums(t.app.ctx, user.user.id)).toMatchObject({ balance: CLOUD_MIN_WALLET_MICRO - 1, held: 2 * estimate });
  });
});
