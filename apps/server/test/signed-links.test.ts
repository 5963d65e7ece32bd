import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { ServerMessage } from '@sightline/contracts';
import { blobKeys } from '../src/platform/storage/blob-keys.js';
import { signBlobUrl } from '../src/platform/storage/signed-url.js';
import { multipart } from './support/harness.js';
import { buildApiKey, buildProject, buildUser } from './support/factories.js';
import { shapes3Dataset, startLiveServer, type LiveServer } from './support/wire.js';

/**
 * Signed links die with access (ADR 0014). Thumbnail, raw image, archive and weights links handed
 * out while an item was public stop working the moment it turns private or goes to the trash (they
 * carry the item's access version), live minutes, and the API hands out working ones again. A
 * realtime subscriber of an item stops receiving its events when it turns private.
 */
let s: LiveServer;
let owner: Awaited<ReturnType<typeof buildUser>>;
let other: Awaited<ReturnType<typeof buildUser>>;
let datasetId: string;
let modelId: string;

beforeAll(async () => {
  s = await startLiveServer();
  owner = await buildUser(s.t.app);
  other = await buildUser(s.t.app);
  datasetId = (await shapes3Dataset(s.t, owner.user.id)).id;
  const weights = Buffer.alloc(4096, 3);
  weights.write('PK\u0003\u0004', 0, 'latin1');
  const mp = multipart({ model_name: 'links', project_name: 'Links' }, { filename: 'best.pt', content: weights });
  const up = await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { cookie: owner.cookie, ...mp.headers }, payload: mp.payload });
  expect(up.statusCode).toBe(201);
  modelId = up.json().data.id;
});
afterAll(async () => {
  await s?.close();
});

const get = (url: string, cookie?: string) => s.t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
const share = async (kind: 'datasets' | 'models', id: string, privacy: string) => {
  const res = await s.t.app.inject({ method: 'POST', url: `/v1/${kind}/${id}/share`, headers: { cookie: owner.cookie }, payload: { privacy } });
  expect(res.statusCode).toBe(200);
};

/** The four kinds of link, as a viewer (anonymous unless a cookie is given) gets them now. */
async function links(cookie?: string) {
  const images = await get(`/v1/datasets/${datasetId}/images?limit=5`, cookie);
  expect(images.statusCode).toBe(200);
  const first = images.json().data.results[0] as { thumbUrl: string; url: string };
  const archive = (await get(`/v1/datasets/${datasetId}/download`, cookie)).json().data.url as string;
  const model = (await get(`/v1/models/${modelId}`, cookie)).json().data as { files: Array<{ kind: string; url: string }> };
  const weights = model.files.find((f) => f.kind === 'best')!.url;
  return { thumbnail: first.thumbUrl, raw: first.url, archive, weights };
}

async function statuses(l: Record<string, string>) {
  const out: Record<string, number> = {};
  for (const [k, url] of Object.entries(l)) out[k] = (await get(url)).statusCode;
  return out;
}

describe('signed links die with access', () => {
  it('all four links answer 403/404 within 1 s of the item going private, and fresh ones work for the owner', async () => {
    await share('datasets', datasetId, 'public');
    await share('models', modelId, 'public');
    const before = await links();
    expect(await statuses(before)).toEqual({ thumbnail: 200, raw: 200, archive: 200, weights: 200 });

    await share('datasets', datasetId, 'private');
    await share('models', modelId, 'private');
    const t0 = Date.now();
    const after = await statuses(before);
    const elapsed = Date.now() - t0;
    for (const [k, code] of Object.entries(after)) expect([403, 404], `${k}: ${code}`).toContain(code);
    expect(elapsed).toBeLessThan(1000);

    // The owner's pages refetch and get links for the new state, which work.
    expect(await statuses(await links(owner.cookie))).toEqual({ thumbnail: 200, raw: 200, archive: 200, weights: 200 });
    // Nobody else gets any.
    expect((await get(`/v1/datasets/${datasetId}/images`, other.cookie)).statusCode).toBe(404);
  });

  it('all four links answer 403/404 once the items are in the trash', async () => {
    const before = await links(owner.cookie);
    expect(Object.values(await statuses(before))).toEqual([200, 200, 200, 200]);
    expect((await s.t.app.inject({ method: 'DELETE', url: `/v1/datasets/${datasetId}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    expect((await s.t.app.inject({ method: 'DELETE', url: `/v1/models/${modelId}`, headers: { cookie: owner.cookie } })).statusCode).toBe(200);
    for (const [k, code] of Object.entries(await statuses(before))) expect([403, 404], `${k}: ${code}`).toContain(code);
    // Restored, the owner gets working links again.
    await s.t.app.inject({ method: 'POST', url: `/v1/datasets/${datasetId}/restore`, headers: { cookie: owner.cookie } });
    await s.t.app.inject({ method: 'POST', url: `/v1/models/${modelId}/restore`, headers: { cookie: owner.cookie } });
    expect(Object.values(await statuses(await links(owner.cookie)))).toEqual([200, 200, 200, 200]);
  });

  it('links live minutes, not days; a dataset link without an access version (the old stable thumbnails) is refused', async () => {
    const l = await links(owner.cookie);
    for (const url of [l.thumbnail, l.raw, l.archive, l.weights]) {
      const exp = Number(new URL(url, 'http://x').searchParams.get('exp'));
      const left = exp * 1000 - s.t.clock.now().getTime();
      expect(left).toBeGreaterThan(5 * 60_000);
      expect(left).toBeLessThanOrEqual(20 * 60_000);
    }
    s.t.clock.advance(21 * 60_000);
    expect(Object.values(await statuses(l))).toEqual([410, 410, 410, 410]);
    // The stored preview (made on first view above) under a never-expiring blob link of the old shape.
    const imageId = /\/images\/([^/]+)\/thumb$/.exec(new URL(l.thumbnail, 'http://x').pathname)![1]!;
    const thumbKey = `${blobKeys.datasetThumbs(owner.user.id, datasetId)}${imageId}.jpg`;
    expect(await s.t.app.ctx.blobs.head(thumbKey)).not.toBeNull();
    const legacy = signBlobUrl({ key: thumbKey, expiresAt: new Date('2100-01-01T00:00:00Z'), secret: s.t.config.sessionSecret!, baseUrl: '' });
    expect((await get(legacy)).statusCode).toBe(403);
  });
});

describe('project cover links', () => {
  it('live minutes and die when the project turns private or goes to the trash; the owner gets a working one again', async () => {
    const p = await buildProject(s.t.app, owner.cookie, { meta: { name: 'Covered' } });
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    const mp = multipart({}, { filename: 'cover.png', content: png, contentType: 'image/png' });
    const up = await s.t.app.inject({
      method: 'POST',
      url: `/v1/projects/${p.id}/image`,
      headers: { cookie: owner.cookie, ...mp.headers },
      payload: mp.payload,
    });
    expect(up.statusCode, up.body).toBe(200);
    const cover = async (cookie?: string) => (await get(`/v1/projects/${p.id}`, cookie)).json().data.image.url as string;
    const setPrivacy = async (privacy: string) =>
      expect(
        (await s.t.app.inject({ method: 'POST', url: `/v1/projects/${p.id}/share`, headers: { cookie: owner.cookie }, payload: { privacy } })).statusCode,
      ).toBe(200);

    await setPrivacy('public');
    const publicLink = await cover();
    const left = Number(new URL(publicLink, 'http://x').searchParams.get('exp')) * 1000 - s.t.clock.now().getTime();
    expect(left).toBeGreaterThan(5 * 60_000);
    expect(left).toBeLessThanOrEqual(20 * 60_000);
    const served = await get(publicLink);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    await setPrivacy('private');
    expect((await get(publicLink)).statusCode).toBe(403);
    const ownLink = await cover(owner.cookie);
    expect((await get(ownLink)).statusCode).toBe(200);
    expect((await s.t.app.inject({ method: 'DELETE', url: `/v1/projects/${p.id}`, headers: { cookie: owner.cookie } })).statusCode).toBeLessThan(300);
    expect((await get(ownLink)).statusCode).toBe(403);
  });
});

describe('training-client dataset links', () => {
  it('the HUB zip and Platform NDJSON links of a dataset die when its privacy changes; new ones work', async () => {
    const { key, legacyKey } = await buildApiKey(s.t.app, owner.cookie, { name: 'trainer' });
    const m = await s.t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie: owner.cookie },
      payload: { dataset: { id: datasetId }, config: { epochs: 1 } },
    });
    const hubDoc = async () =>
      (await s.t.app.inject({ method: 'GET', url: `/v1/models/${m.json().data.id}`, headers: { 'x-api-key': legacyKey } })).json().data;
    const slug = (await get(`/v1/datasets/${datasetId}`, owner.cookie)).json().data.slug as string;
    const ndjsonUrl = async () =>
      (await s.t.app.inject({ method: 'GET', url: `/api/datasets/${owner.user.username}/${slug}/export`, headers: { authorization: `Bearer ${key}` } })).json()
        .downloadUrl as string;
    const status = async (url: string) => (await s.t.app.inject({ method: 'HEAD', url: new URL(url).pathname + new URL(url).search })).statusCode;

    const zip = String((await hubDoc()).data);
    const ndjson = await ndjsonUrl();
    expect(zip).toMatch(/\.zip\?exp=\d+&sig=/);
    expect([await status(zip), await status(ndjson)]).toEqual([200, 200]);
    await share('datasets', datasetId, 'public');
    expect([await status(zip), await status(ndjson)]).toEqual([403, 403]);
    expect([await status(String((await hubDoc()).data)), await status(await ndjsonUrl())]).toEqual([200, 200]);
    await share('datasets', datasetId, 'private');
  });
});

/** A WebSocket client that keeps every message. */
async function connect(cookie: string) {
  const ws = new WebSocket(`${s.origin.replace(/^http/, 'ws')}/v1/realtime`, { headers: { cookie } });
  const received: ServerMessage[] = [];
  ws.on('message', (raw: Buffer) => received.push(JSON.parse(raw.toString('utf8')) as ServerMessage));
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const waitFor = async (match: (m: ServerMessage) => boolean, ms = 5000) => {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      const m = received.find(match);
      if (m) return m;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no matching message; got ${JSON.stringify(received)}`);
  };
  return { ws, received, waitFor };
}

describe('realtime subscriptions are re-authorized', () => {
  it('a subscriber of a public model stops receiving its events when it turns private; the owner keeps them', async () => {
    await share('models', modelId, 'public');
    const topic = `model:${modelId}`;
    const watcher = await connect(other.cookie);
    const own = await connect(owner.cookie);
    try {
      for (const c of [watcher, own]) {
        c.ws.send(JSON.stringify({ type: 'subscribe', topic }));
        await c.waitFor((m) => m.type === 'subscribed' && m.topic === topic);
      }
      const rename = (name: string) =>
        s.t.app.inject({ method: 'PATCH', url: `/v1/models/${modelId}`, headers: { cookie: owner.cookie }, payload: { meta: { name } } });
      expect((await rename('while public')).statusCode).toBe(200);
      await watcher.waitFor((m) => m.type === 'event' && m.topic === topic);
      const seenWhilePublic = watcher.received.filter((m) => m.type === 'event' && m.topic === topic).length;

      await share('models', modelId, 'private');
      await watcher.waitFor((m) => m.type === 'error' && m.topic === topic);
      expect((await rename('while private')).statusCode).toBe(200);
      // The owner sees both changes after the privacy change...
      await own.waitFor((m) => m.type === 'event' && m.topic === topic && own.received.filter((x) => x.type === 'event' && x.topic === topic).length >= 3);
      // ...the former viewer none of them: not the privacy change itself, not the rename after it.
      expect(watcher.received.filter((m) => m.type === 'event' && m.topic === topic)).toHaveLength(seenWhilePublic);
      // And subscribing again is refused.
      watcher.ws.send(JSON.stringify({ type: 'subscribe', topic }));
      await watcher.waitFor((m) => m.type === 'error' && m.topic === topic && watcher.received.filter((x) => x.type === 'error').length >= 2);
    } finally {
      watcher.ws.close();
      own.ws.close();
    }
  });
});
