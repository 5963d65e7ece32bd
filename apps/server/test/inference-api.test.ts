import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { analyticsEvents, inferenceUsage, users } from '../src/platform/db/schema.js';
import { createTestApp, FIXTURES, multipart, sessionCookie, type TestApp } from './support/harness.js';
import { buildApiKey, buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const image = (name = 'test_0003.png') => fs.readFileSync(path.join(FIXTURES, 'test-images', name));
const golden = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'golden-detect.json'), 'utf8'));

async function upload(cookie: string, file: string, privacy?: string) {
  const mp = multipart({ model_name: path.basename(file) }, { filename: path.basename(file), content: fs.readFileSync(path.join(FIXTURES, file)) });
  const res = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie }, payload: mp.payload });
  expect(res.statusCode).toBe(201);
  const id = res.json().data.id as string;
  if (privacy) await t.app.inject({ method: 'POST', url: `/v1/models/${id}/share`, headers: { cookie }, payload: { privacy } });
  return id;
}
function predict(modelId: string, headers: Record<string, string>, fields: Record<string, string> = {}, file: Buffer | null = image(), filename = 'img.png') {
  const mp = multipart(fields, file ? { filename, content: file, contentType: 'image/png' } : undefined);
  return t.app.inject({ method: 'POST', url: `/v1/predict/${modelId}`, headers: { ...mp.headers, ...headers }, payload: mp.payload });
}

describe('POST /v1/predict/{modelId}', () => {
  it('answers HUB-shaped results matching ultralytics, with rate-limit headers, via session or API key', async () => {
    const u = await buildUser(t.app);
    const id = await upload(u.cookie, 'shapes3-detect.onnx');
    const res = await predict(id, { cookie: u.cookie }, { conf: '0.25', iou: '0.45', imgsz: '640' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('100');
    expect(res.headers['x-ratelimit-remaining']).toBe('99');
    expect(Number(res.headers['x-ratelimit-reset'])).toBeGreaterThan(Date.now() / 1000);
    const body = res.json();
    const img = body.images[0];
    expect(img.shape).toEqual([240, 320]);
    expect(Object.keys(body.speed)).toEqual(expect.arrayContaining(['preprocess', 'inference', 'postprocess']));
    const expected = golden.images.find((g: { file: string }) => g.file === 'test_0003.png').detections as Array<{
      name: string;
      confidence: number;
      box_xyxy: number[];
    }>;
    expect(img.results).toHaveLength(expected.length);
    for (const [i, r] of img.results.entries()) {
      expect(r.name).toBe(expected[i]!.name);
      expect(Math.abs(r.confidence - expected[i]!.confidence)).toBeLessThan(1e-3);
      const [x1, y1, x2, y2] = expected[i]!.box_xyxy;
      expect(Math.max(Math.abs(r.box.x1 - x1!), Math.abs(r.box.y1 - y1!), Math.abs(r.box.x2 - x2!), Math.abs(r.box.y2 - y2!))).toBeLessThan(1);
    }
    const key = (await buildApiKey(t.app, u.cookie, { name: 'ci' })).key;
    const viaKey = await predict(id, { 'x-api-key': key });
    expect(viaKey.statusCode).toBe(200);
    expect(viaKey.headers['x-ratelimit-remaining']).toBe('98');
    const usage = (await t.app.inject({ method: 'GET', url: '/v1/users/me/inference-usage', headers: { cookie: u.cookie } })).json().data;
    expect(usage.total).toBe(2);
    expect(usage.perKey.find((k: { name: string }) => k.name === 'ci').count).toBe(1);
    await vi.waitFor(async () => {
      const events = (await t.database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, u.user.id))).map((e) => e.name);
      expect(events.filter((n) => n === 'infer_model')).toHaveLength(2);
    });
  });

  it('segment and classify models answer per task', async () => {
    const u = await buildUser(t.app);
    const seg = await upload(u.cookie, 'shapes3-seg.onnx');
    const s = (await predict(seg, { cookie: u.cookie })).json().images[0].results;
    expect(s.length).toBeGreaterThan(0);
    expect(s[0].segments.x.length).toBeGreaterThan(2);
    const cls = await upload(u.cookie, 'shapes3-cls.onnx');
    const crop = fs.readFileSync(path.join(FIXTURES, 'test-images-cls/red_square', fs.readdirSync(path.join(FIXTURES, 'test-images-cls/red_square'))[0]!));
    const c = (await predict(cls, { cookie: u.cookie }, {}, crop)).json().images[0].results;
    expect(c[0].name).toBe('red_square');
    expect(c.length).toBeLessThanOrEqual(5);
  });

  it('a dynamic ONNX export runs at the rectangle ultralytics predict uses, with its boxes; answers go out uncompressed (ADR 0041)', async () => {
    const u = await buildUser(t.app);
    const rect = path.resolve(import.meta.dirname, 'fixtures/rect');
    const mp = multipart(
      { model_name: 'seg-dynamic' },
      { filename: 'seg-dynamic.onnx', content: fs.readFileSync(path.join(rect, 'shapes3-seg-dynamic.onnx')) },
    );
    const up = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: u.cookie }, payload: mp.payload });
    expect(up.statusCode).toBe(201);
    const want = JSON.parse(fs.readFileSync(path.join(rect, 'golden-rect.json'), 'utf8')).segment.sizes['160'].find(
      (im: { file: string }) => im.file === 'test_0003.png',
    );
    const res = await predict(up.json().data.id, { cookie: u.cookie, 'accept-encoding': 'br, gzip' }, { imgsz: '160' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    const body = res.json();
    expect(body.metadata.imgsz).toEqual(want.input_hw);
    expect(body.metadata.imgsz).toEqual([128, 160]);
    const got = body.images[0].results as Array<{ class: number; confidence: number; box: Record<'x1' | 'y1' | 'x2' | 'y2', number> }>;
    expect(got.map((r) => r.class)).toEqual(want.detections.map((d: { class_id: number }) => d.class_id));
    got.forEach((r, i) => {
      const [x1, y1, x2, y2] = want.detections[i].box_xyxy as number[];
      for (const [a, b] of [
        [r.box.x1, x1],
        [r.box.y1, y1],
        [r.box.x2, x2],
        [r.box.y2, y2],
      ])
        expect(Math.abs(a - b)).toBeLessThan(0.01);
      expect(Math.abs(r.confidence - want.detections[i].confidence)).toBeLessThan(1e-3);
    });
  });

  it('bad inputs each get a clear error', async () => {
    const u = await buildUser(t.app);
    const id = await upload(u.cookie, 'shapes3-detect.onnx');
    for (const [fields, msg] of [
      [{ imgsz: '16' }, /imgsz/],
      [{ imgsz: '2000' }, /imgsz/],
      [{ conf: '0' }, /conf/],
      [{ conf: '1.5' }, /conf/],
      [{ iou: '0.99' }, /iou/],
    ] as const) {
      const res = await predict(id, { cookie: u.cookie }, fields);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toMatch(msg);
    }
    const notImage = await predict(id, { cookie: u.cookie }, {}, Buffer.from('hello, not an image'), 'x.png');
    expect(notImage.json().error.code).toBe('error/invalid-image');
    const noFile = await predict(id, { cookie: u.cookie }, {}, null);
    expect(noFile.statusCode).toBe(400);
    const huge = Buffer.concat([image().subarray(0, 8), Buffer.alloc(21 * 1024 * 1024)]);
    const tooBig = await predict(id, { cookie: u.cookie }, {}, huge);
    expect(tooBig.statusCode).toBe(413);
    const ptOnly = await upload(u.cookie, 'shapes3-detect.pt');
    const noOnnx = await predict(ptOnly, { cookie: u.cookie });
    expect(noOnnx.statusCode).toBe(409);
    expect(noOnnx.json().error).toMatchObject({ code: 'error/no-onnx' });
    expect(noOnnx.json().error.message).toMatch(/Export it to ONNX/);
    expect((await predict('x'.repeat(20), { cookie: u.cookie })).statusCode).toBe(404);
    expect((await predict(id, {})).statusCode).toBe(401);
    expect((await predict(id, { 'x-api-key': `ul_${'0'.repeat(40)}` })).json().error.code).toBe('auth/invalid-api-key');
  });

  it("someone else's private model is not found; a public one runs on the caller's quota", async () => {
    const owner = await buildUser(t.app);
    const other = await buildUser(t.app);
    const priv = await upload(owner.cookie, 'shapes3-detect.onnx');
    expect((await predict(priv, { cookie: other.cookie })).statusCode).toBe(404);
    const pub = await upload(owner.cookie, 'shapes3-detect.onnx', 'public');
    const res = await predict(pub, { cookie: other.cookie });
    expect(res.statusCode).toBe(200);
    const rows = await t.database.db.select().from(inferenceUsage).where(eq(inferenceUsage.userId, other.user.id));
    expect(rows.length).toBeGreaterThan(0);
  });

  it('the decode overlaps the quota only after authorization and the input checks: every answer keeps its precedence (ADR 0041)', async () => {
    const u = await buildUser(t.app);
    const id = await upload(u.cookie, 'shapes3-cls.onnx');
    const corrupt = Buffer.concat([image().subarray(0, 16), Buffer.alloc(256, 7)]); // PNG magic, then bytes that do not decode
    expect((await predict('x'.repeat(20), { cookie: u.cookie }, { imgsz: '16' }, corrupt)).statusCode).toBe(404);
    expect((await predict(id, {}, { imgsz: '16' }, corrupt)).statusCode).toBe(401);
    const badField = await predict(id, { cookie: u.cookie }, { imgsz: '16' }, corrupt);
    expect(badField.statusCode).toBe(400);
    expect(badField.json().error.message).toMatch(/imgsz/);
    // The first call of the window waits for the database, and the image decodes meanwhile: its error is the answer,
    // and the call counts, as when the decode came after the quota.
    const first = await predict(id, { cookie: u.cookie }, {}, corrupt);
    expect(first.statusCode).toBe(400);
    expect(first.json().error.code).toBe('error/invalid-image');
    expect(first.headers['x-ratelimit-remaining']).toBe('99');
    const ok = await predict(id, { cookie: u.cookie });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('98');
    const usage = (await t.app.inject({ method: 'GET', url: '/v1/users/me/inference-usage', headers: { cookie: u.cookie } })).json().data;
    expect(usage.total).toBe(2);

    // Over the quota, an image that does not decode still gets the 429: from the database (decoded meanwhile, the
    // result dropped) and then from memory (not decoded at all).
    const full = await buildUser(t.app);
    const own = await upload(full.cookie, 'shapes3-cls.onnx');
    const now = t.clock.now();
    await t.database.db.insert(inferenceUsage).values({ userId: full.user.id, apiKeyId: '', bucket: `h:${now.toISOString().slice(0, 13)}`, count: 100 });
    for (let i = 0; i < 2; i++) {
      const refused = await predict(own, { cookie: full.cookie }, {}, corrupt);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().error.code).toBe('error/rate-limited');
    }
  });

  it('a multipart body in a form other than the usual one is read by busboy, with the same answer', async () => {
    const u = await buildUser(t.app);
    const id = await upload(u.cookie, 'shapes3-detect.onnx');
    const mp = multipart({ conf: '0.3' }, { filename: 'a.png', content: image(), contentType: 'image/png' });
    const send = (payload: Buffer) => t.app.inject({ method: 'POST', url: `/v1/predict/${id}`, headers: { ...mp.headers, cookie: u.cookie }, payload });
    const usual = await send(mp.payload);
    const withPreamble = await send(Buffer.concat([Buffer.from('a preamble, which busboy skips\r\n'), mp.payload]));
    expect(usual.statusCode).toBe(200);
    expect(withPreamble.statusCode).toBe(200);
    expect(withPreamble.json().images[0].results).toEqual(usual.json().images[0].results);
    const truncated = await send(mp.payload.subarray(0, mp.payload.length - 20));
    expect(truncated.statusCode).toBe(400);
  });

  it('429 with Retry-After once the hourly quota is used', async () => {
    const u = await buildUser(t.app);
    const id = await upload(u.cookie, 'shapes3-cls.onnx');
    const now = t.clock.now();
    await t.database.db.insert(inferenceUsage).values({ userId: u.user.id, apiKeyId: '', bucket: `h:${now.toISOString().slice(0, 13)}`, count: 100 });
    const res = await predict(id, { cookie: u.cookie });
    expect(res.statusCode).toBe(429);
    expect(res.json().error.code).toBe('error/rate-limited');
    expect(res.headers['x-ratelimit-remaining']).toBe('0');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(3600);
  });
});

describe('dedicated inference endpoints', () => {
  it('need pro and the flag; run in an isolated worker; stop', async () => {
    const u = await buildUser(t.app);
    const id = await upload(u.cookie, 'shapes3-detect.onnx');
    const free = await t.app.inject({ method: 'POST', url: `/v1/models/${id}/endpoint`, headers: { cookie: u.cookie } });
    expect(free.json().error.code).toBe('error/plan-required');
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, u.user.id));
    const noFlag = await t.app.inject({ method: 'POST', url: `/v1/models/${id}/endpoint`, headers: { cookie: u.cookie } });
    expect(noFlag.json().error.code).toBe('error/feature-disabled');
    const adminRow = (await t.database.db.select().from(users)).find((x) => x.roles.includes('admin'))!;
    await t.database.db
      .update(users)
      .set({ passwordHash: (await t.database.db.select().from(users).where(eq(users.id, u.user.id)))[0]!.passwordHash })
      .where(eq(users.id, adminRow.id));
    const adminCookie = sessionCookie(await t.app.inject({ method: 'POST', url: '/v1/auth/signin', payload: { email: adminRow.email, password: u.password } }));
    await t.app.inject({ method: 'PATCH', url: '/v1/config/flags', headers: { cookie: adminCookie }, payload: { dedicatedInference: true } });
    const started = await t.app.inject({ method: 'POST', url: `/v1/models/${id}/endpoint`, headers: { cookie: u.cookie } });
    expect(started.statusCode).toBe(201);
    expect(started.json().data.status).toBe('running');
    const url = started.json().data.url;
    const mp = multipart({ conf: '0.5' }, { filename: 'a.png', content: image() });
    const res = await t.app.inject({ method: 'POST', url, headers: { ...mp.headers, cookie: u.cookie }, payload: mp.payload });
    expect(res.statusCode).toBe(200);
    expect(res.json().images[0].results.length).toBeGreaterThan(0);
    expect((await t.app.inject({ method: 'GET', url: `/v1/models/${id}/endpoint`, headers: { cookie: u.cookie } })).json().data.status).toBe('running');
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/models/${id}/endpoint`, headers: { cookie: u.cookie } })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: `/v1/models/${id}/endpoint`, headers: { cookie: u.cookie } })).json().data).toBeNull();
    const after = await t.app.inject({ method: 'POST', url, headers: { ...mp.headers, cookie: u.cookie }, payload: mp.payload });
    expect(after.statusCode).toBe(404);
  });
});
