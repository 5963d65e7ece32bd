import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, multipart, type TestApp } from './support/harness.js';
import { buildDataset, buildModel, buildUser } from './support/factories.js';
import { fakeWeights, requestsMultipart, send, startLiveServer, userWithKey, type LiveServer } from './support/wire.js';

/**
 * Storage quota (ADR 0014): storage is reserved when an upload starts and settled or released when it
 * ends, so parallel uploads can never together pass the quota; abandoned reservations expire.
 */
const SIZE = 512 * 1024;
/** Room for exactly two uploads (and their multipart headers), not three. */
const QUOTA = 2 * SIZE + 32 * 1024;

let t: TestApp;
let admin: Awaited<ReturnType<typeof buildUser>>;
beforeAll(async () => {
  t = await createTestApp();
  admin = await buildUser(t.app);
  const res = await t.app.inject({ method: 'PATCH', url: '/v1/admin/billing/plans/free', headers: { cookie: admin.cookie }, payload: { storageBytes: QUOTA } });
  expect(res.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

type H = Record<string, string>;
const req = (method: 'GET' | 'POST' | 'PATCH' | 'HEAD', url: string, headers: H = {}, payload?: unknown) =>
  t.app.inject({ method, url, headers, payload: payload as never });
const b64 = (s: string) => Buffer.from(s).toString('base64');
const storage = async (cookie: string) =>
  (await req('GET', '/v1/users/me/storage', { cookie })).json().data as { used: number; limit: number; remaining: number };

/** A .pt file (zip magic) of SIZE bytes. */
const weights = (seed: number) => {
  const b = Buffer.alloc(SIZE, seed);
  b.write('PK\u0003\u0004', 0, 'latin1');
  return b;
};

let datasetSeq = 0;
async function newDataset(cookie: string) {
  return (await buildDataset(t.app, cookie, { meta: { name: `Quota ${++datasetSeq}` }, task: 'detect' })).id;
}

async function uploadToken(u: { cookie: string; user: { id: string } }, datasetId: string, bytes: number) {
  const tok = await req('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${datasetId}/a.zip`, bytes });
  expect(tok.statusCode).toBe(200);
  return tok.json().data.token as string;
}

const tusCreate = (cookie: string, token: string, bytes: number) =>
  req('POST', '/v1/uploads/tus', {
    cookie,
    'tus-resumable': '1.0.0',
    'upload-length': String(bytes),
    'upload-metadata': `token ${b64(token)},filename ${b64('a.zip')}`,
  });

const tusPatch = (cookie: string, location: string, body: Buffer) =>
  t.app.inject({
    method: 'PATCH',
    url: location,
    headers: { cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    payload: body,
  });

describe('POST /v1/models/upload in parallel', () => {
  it('10 parallel uploads against a quota for 2: exactly 2 are accepted, the others get 403 InsufficientStorageError (not a retried 5xx) and leave nothing', async () => {
    const u = await buildUser(t.app);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => {
        // (each into its own new project: parallel creations of one project name are not what this tests)
        const mp = multipart({ model_name: `m${i}`, project_name: `Quota ${i}` }, { filename: 'best.pt', content: weights(i + 1) });
        return req('POST', '/v1/models/upload', { cookie: u.cookie, ...mp.headers }, mp.payload);
      }),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(2);
    expect(codes.filter((c) => c === 403)).toHaveLength(8);
    expect(answers.find((r) => r.statusCode === 403)!.json().error.code).toBe('InsufficientStorageError');
    const s = await storage(u.cookie);
    // Reservations are settled: what is used is exactly the two stored files.
    expect(s.used).toBe(2 * SIZE);
    expect(s.used).toBeLessThanOrEqual(QUOTA);
    // A file that fits the room left still goes through afterwards.
    const small = Buffer.alloc(1000, 7);
    small.write('PK\u0003\u0004', 0, 'latin1');
    const mp = multipart({ model_name: 'small' }, { filename: 'small.pt', content: small });
    expect((await req('POST', '/v1/models/upload', { cookie: u.cookie, ...mp.headers }, mp.payload)).statusCode).toBe(201);
  });
});

describe('tus uploads in parallel', () => {
  it('10 parallel uploads against a quota for 2: exactly 2 finish, 8 are refused at creation', async () => {
    const u = await buildUser(t.app);
    const datasets: string[] = [];
    for (let i = 0; i < 10; i++) datasets.push(await newDataset(u.cookie));
    // Every token is granted (nothing is used yet): the reservation at tus creation is what holds.
    const tokens: string[] = [];
    for (const id of datasets) tokens.push(await uploadToken(u, id, SIZE));
    const outcomes = await Promise.all(
      tokens.map(async (token, i) => {
        const create = await tusCreate(u.cookie, token, SIZE);
        if (create.statusCode !== 201) return create.statusCode;
        const location = String(create.headers.location);
        const done = await tusPatch(u.cookie, location.startsWith('http') ? new URL(location).pathname : location, Buffer.alloc(SIZE, i));
        return done.statusCode;
      }),
    );
    expect(outcomes.filter((c) => c === 204)).toHaveLength(2);
    expect(outcomes.filter((c) => c === 403)).toHaveLength(8);
    const s = await storage(u.cookie);
    expect(s.used).toBe(2 * SIZE);
  });

  it('an abandoned upload holds its bytes until its reservation expires; resumed after, it must fit again', async () => {
    const u = await buildUser(t.app);
    const [a, b] = [await newDataset(u.cookie), await newDataset(u.cookie)];
    const abandoned = await tusCreate(u.cookie, await uploadToken(u, a, 2 * SIZE), 2 * SIZE);
    expect(abandoned.statusCode).toBe(201);
    expect((await storage(u.cookie)).used).toBe(2 * SIZE);
    const tokenB = await uploadToken(u, b, SIZE).catch(() => null);
    expect(tokenB).toBeNull(); // no room while the bytes are reserved
    t.clock.advance(24 * 3600_000 + 60_000);
    expect((await storage(u.cookie)).used).toBe(0);
    const created = await tusCreate(u.cookie, await uploadToken(u, b, SIZE), SIZE);
    expect(created.statusCode).toBe(201);
    // The abandoned upload comes back: its 2 × SIZE no longer fit next to the new reservation.
    const location = String(abandoned.headers.location);
    const late = await tusPatch(u.cookie, location.startsWith('http') ? new URL(location).pathname : location, Buffer.alloc(1000, 1));
    expect(late.statusCode).toBe(403);
  });
});

describe('training uploads in parallel (both client protocols)', () => {
  let s: LiveServer;
  beforeAll(async () => {
    s = await startLiveServer();
    const boss = await buildUser(s.t.app);
    await s.t.app.inject({ method: 'PATCH', url: '/v1/admin/billing/plans/free', headers: { cookie: boss.cookie }, payload: { storageBytes: QUOTA } });
  });
  afterAll(async () => {
    await s?.close();
  });

  it('HUB final uploads to 10 models at once: 2 stored, the rest 403; storage never passes the quota', async () => {
    const dave = await userWithKey(s.t);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push((await buildModel(s.t.app, dave.cookie, {})).id);
    const answers = await Promise.all(
      ids.map((id, i) => {
        const mp = requestsMultipart(
          [
            ['epoch', '0'],
            ['type', 'final'],
            ['map', '0.5'],
          ],
          { name: 'best.pt', content: fakeWeights(SIZE, `hub${i}`) },
        );
        return send(`${s.origin}/v1/models/${id}/upload`, {
          method: 'POST',
          headers: { 'x-api-key': dave.legacyKey, 'Content-Type': mp.contentType },
          body: mp.body,
        });
      }),
    );
    const codes = answers.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c === 403)).toHaveLength(8);
    const used = (await s.t.app.inject({ method: 'GET', url: '/v1/users/me/storage', headers: { cookie: dave.cookie } })).json().data.used;
    expect(used).toBeLessThanOrEqual(QUOTA);
    expect(used).toBe(2 * SIZE);
  });

  it('Platform checkpoint PUTs for 10 runs at once: 2 stored, the rest 403', async () => {
    const erin = await userWithKey(s.t);
    const runs = [];
    for (let i = 0; i < 10; i++) {
      const res = await send(`${s.origin}/api/webhooks/training/metrics`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${erin.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ event: 'training_started', project: 'quota', name: `run${i}`, data: { trainArgs: {} } }),
      });
      expect(res.status).toBe(200);
      runs.push(res.json() as { modelId: string });
    }
    const urls = await Promise.all(
      runs.map(
        async ({ modelId }) =>
          (
            await send(`${s.origin}/api/webhooks/models/upload`, {
              method: 'POST',
              headers: { Authorization: `Bearer ${erin.key}`, 'Content-Type': 'application/json' },
              body: JSON.stringify({ filename: 'best.pt', modelId }),
            })
          ).json().uploadUrl as string,
      ),
    );
    const answers = await Promise.all(
      urls.map((url, i) => send(url, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: fakeWeights(SIZE, `pf${i}`) })),
    );
    const codes = answers.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(2);
    expect(codes.filter((c) => c === 403)).toHaveLength(8);
    const used = (await s.t.app.inject({ method: 'GET', url: '/v1/users/me/storage', headers: { cookie: erin.cookie } })).json().data.used;
    expect(used).toBe(2 * SIZE);
  });
});
