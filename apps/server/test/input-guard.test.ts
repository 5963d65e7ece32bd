/**
 * One input guard (ADR 0013) for the whole API. Every operation of the served OpenAPI
 * document that takes input is called with a NUL in each path parameter, query parameter and body
 * field, and (when it takes a body) with JSON nested 5,000 deep: all must answer 400 naming the
 * field, none 5xx. Then the named cases (upload file names, model config, training metrics) and the
 * one max length of names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NAME_MAX } from '@sightline/contracts';
import { createTestApp, multipart, type TestApp } from './support/harness.js';
import { buildModel, buildUser } from './support/factories.js';

let t: TestApp;
let cookie: string;
let apiKey: string;
beforeAll(async () => {
  t = await createTestApp();
  const u = await buildUser(t.app);
  cookie = u.cookie;
  const key = await t.app.inject({ method: 'POST', url: '/v1/api-keys', headers: { cookie, origin: 'http://localhost:3000' }, payload: { name: 'guard' } });
  expect(key.statusCode).toBe(201);
  apiKey = key.json().data.key ?? key.json().data.legacyKey;
});
afterAll(async () => {
  await t.close();
});

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; items?: Schema; anyOf?: Schema[]; oneOf?: Schema[]; allOf?: Schema[] };
type Operation = {
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header' | 'cookie'; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

const NUL = 'a\u0000b';
/** Sightline's `{ error: { message } }`, or the Platform protocol's `{ error: "message" }`. */
const errorMessage = (body: { error?: string | { message?: string } }) => (typeof body.error === 'string' ? body.error : (body.error?.message ?? ''));
const DEEP = 5000;
// Arrays keep 5,000 levels at 10 kB, under the smallest route body limit (sign-in's).
const deepJson = (key: string) => `{"${key}":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`;

/** The body's own properties (first alternative of a union); none for a non-object body. */
function bodyProps(schema: Schema | undefined): string[] {
  if (!schema) return [];
  if (schema.properties) return Object.keys(schema.properties);
  for (const alt of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])]) {
    const props = bodyProps(alt);
    if (props.length) return props;
  }
  return [];
}

async function operations() {
  const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  const ops: Array<{ method: Method; path: string; op: Operation }> = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const method = m.toUpperCase() as Method;
      if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(method)) continue;
      ops.push({ method, path, op });
    }
  }
  return ops;
}

const fill = (path: string, nulIn?: string) => path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === nulIn ? 'a%00b' : 'x1'));
const headers = () => ({ 'x-api-key': apiKey, origin: 'http://localhost:3000' });

describe('defect 5: NUL and deep JSON answer 400 on every endpoint of the OpenAPI document', () => {
  it('a NUL in any path parameter, query parameter or body field: 400 naming the field', { timeout: 120_000 }, async () => {
    const ops = await operations();
    const tried: string[] = [];
    const wrong: string[] = [];
    for (const { method, path, op } of ops) {
      const cases: Array<{ field: string; url: string; payload?: string }> = [];
      for (const p of op.parameters ?? []) {
        if (p.in === 'path') cases.push({ field: `params.${p.name}`, url: fill(path, p.name) });
        if (p.in === 'query') cases.push({ field: `query.${p.name}`, url: `${fill(path)}?${encodeURIComponent(p.name)}=a%00b` });
      }
      const json = op.requestBody?.content?.['application/json'];
      if (json) {
        const props = bodyProps(json.schema);
        for (const prop of props.length ? props : ['value']) cases.push({ field: `body.${prop}`, url: fill(path), payload: JSON.stringify({ [prop]: NUL }) });
      }
      if (op.requestBody?.content?.['multipart/form-data']) {
        const form = multipart({}, { filename: 'evil\0.bin', content: Buffer.from('data') });
        const res = await t.app.inject({ method, url: fill(path), headers: { ...headers(), ...form.headers }, payload: form.payload });
        tried.push(`${method} ${path} multipart file name`);
        // An upload to an item that does not exist ('x1') may answer 404 before it reads the body.
        const missingItem = res.statusCode === 404 && path.includes('{');
        if (!missingItem && (res.statusCode !== 400 || !/^file\.filename: /.test(errorMessage(res.json()))))
          wrong.push(`${method} ${path} multipart file name → ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
      for (const c of cases) {
        const res = await t.app.inject({
          method,
          url: c.url,
          headers: { ...headers(), ...(c.payload ? { 'content-type': 'application/json' } : {}) },
          payload: c.payload,
        });
        tried.push(`${method} ${path} ${c.field}`);
        const message = res.statusCode === 400 ? errorMessage(res.json()) : '';
        if (res.statusCode !== 400 || !message.startsWith(`${c.field}:`))
          wrong.push(`${method} ${path} ${c.field} → ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
    console.info(`NUL: ${tried.length} inputs on ${ops.length} operations`);
    expect(wrong).toEqual([]);
    expect(tried.length).toBeGreaterThan(150);
  });

  it('JSON nested 5,000 deep in any body: 400, never a stack overflow', { timeout: 120_000 }, async () => {
    const ops = (await operations()).filter(({ op }) => op.requestBody?.content?.['application/json']);
    const wrong: string[] = [];
    for (const { method, path, op } of ops) {
      const prop = bodyProps(op.requestBody!.content!['application/json']!.schema)[0] ?? 'value';
      const res = await t.app.inject({ method, url: fill(path), headers: { ...headers(), 'content-type': 'application/json' }, payload: deepJson(prop) });
      if (res.statusCode !== 400 || !/nested more than \d+ levels/.test(errorMessage(res.json())))
        wrong.push(`${method} ${path} → ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    console.info(`deep JSON: ${ops.length} operations with a JSON body`);
    expect(wrong).toEqual([]);
    expect(ops.length).toBeGreaterThan(40);
  });

  it('the named cases: model config, training metrics (HUB and Platform protocols), a body over the size limit', async () => {
    const model = await buildModel(t.app, { cookie, origin: 'http://localhost:3000' }, { meta: { name: 'deep' } });
    const deepConfig = `{"config":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}`;
    for (const [method, url, payload] of [
      ['PATCH', `/v1/models/${model.id}`, deepConfig],
      ['POST', `/v1/models/${model.id}`, `{"metrics":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`],
      ['POST', '/api/webhooks/training/metrics', `{"event":"epoch_end","modelId":"${model.id}","data":${'{"m":'.repeat(DEEP)}1${'}'.repeat(DEEP)}}`],
      ['POST', '/v1/models', `{"meta":{"name":"a\\u0000b"}}`],
      // HUB metrics are double-encoded: the depth and NUL hide inside a string
      ['POST', `/v1/models/${model.id}`, JSON.stringify({ type: 'metrics', metrics: { '0': `{"loss":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}` } })],
      ['POST', `/v1/models/${model.id}`, JSON.stringify({ type: 'metrics', metrics: { '0': '{"lo\\u0000ss":1}' } })],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { 'x-api-key': apiKey, 'content-type': 'application/json' }, payload });
      expect(res.statusCode, `${method} ${url}: ${res.body.slice(0, 200)}`).toBe(400);
      expect(res.json().error.code ?? res.json().error).toMatch(/^error\/validation|nested/);
    }
    const huge = await t.app.inject({
      method: 'PATCH',
      url: `/v1/models/${model.id}`,
      headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ config: { pad: 'x'.repeat(2 * 1024 * 1024) } }),
    });
    expect(huge.statusCode).toBe(413);
  });

  it('upload file names with NUL: tus metadata and multipart parts are refused with 400 naming the field', async () => {
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    const tus = await t.app.inject({
      method: 'POST',
      url: '/v1/uploads/tus',
      headers: { cookie, 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': `token ${b64('x')},filename ${b64('evil\0.zip')}` },
    });
    expect(tus.statusCode).toBe(400);
    expect(tus.json().error.message).toMatch(/^Upload-Metadata\.filename: must not contain a NUL/);

    const form = multipart({ model_name: 'm', project_name: 'p' }, { filename: 'best\0.pt', content: Buffer.from('weights') });
    const up = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...form.headers, 'x-api-key': apiKey }, payload: form.payload });
    expect(up.statusCode).toBe(400);
    expect(up.json().error.message).toMatch(/^file\.filename: must not contain a NUL/);

    const field = multipart({ model_name: 'm\0' }, { filename: 'best.pt', content: Buffer.from('weights') });
    const up2 = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...field.headers, 'x-api-key': apiKey }, payload: field.payload });
    expect(up2.statusCode).toBe(400);
    expect(up2.json().error.message).toMatch(/^model_name: must not contain a NUL/);

    const avatar = multipart({}, { filename: 'me\0.png', content: Buffer.from('png') });
    const av = await t.app.inject({
      method: 'POST',
      url: '/v1/users/me/image',
      headers: { ...avatar.headers, cookie, origin: 'http://localhost:3000' },
      payload: avatar.payload,
    });
    expect(av.statusCode).toBe(400);
  });
});

describe('defect 7: one max length for every name', () => {
  it(`POST /v1/models refuses a name over ${NAME_MAX} characters like PATCH does; a path keeps its base name`, async () => {
    const long = 'n'.repeat(10_000);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { meta: { name: long } },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().error.message).toMatch(/meta\.name/);
    const over = await t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { meta: { name: 'm'.repeat(NAME_MAX + 1) } },
    });
    expect(over.statusCode).toBe(400);
    const max = await t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { meta: { name: 'm'.repeat(NAME_MAX) } },
    });
    expect(max.statusCode).toBe(201);
    // hub-sdk sends the weights file argument: a long path is cut to its base name
    const viaPath = await t.app.inject({
      method: 'POST',
      url: '/v1/models',
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { meta: { name: `${'/very/long/dir'.repeat(20)}/yolo11n.pt` } },
    });
    expect(viaPath.statusCode).toBe(201);
    expect(viaPath.json().data.meta.name).toBe('yolo11n.pt');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/v1/models/${max.json().data.id}`,
      headers: { cookie, origin: 'http://localhost:3000' },
      payload: { meta: { name: 'p'.repeat(NAME_MAX + 1) } },
    });
    expect(patched.statusCode).toBe(400);
  });

  it(`the Platform training protocol refuses run and project names over ${NAME_MAX} characters`, async () => {
    const start = (name: string | undefined, project: string, trainArgs: Record<string, unknown> = { epochs: 1 }) =>
      t.app.inject({
        method: 'POST',
        url: '/api/webhooks/training/metrics',
        headers: { 'x-api-key': apiKey, 'content-type': 'application/json' },
        payload: { event: 'training_started', project, name, data: { trainArgs } },
      });
    const inArgs = await start(undefined, 'me/proj', { epochs: 1, name: 'r'.repeat(300) });
    expect(inArgs.statusCode).toBe(400);
    expect(errorMessage(inArgs.json())).toMatch(/trainArgs\.name: At most 100 characters/);
    const fine = await start('r'.repeat(NAME_MAX), 'me/proj');
    expect(fine.statusCode).toBe(200);
    const longRun = await start('r'.repeat(300), 'me/proj');
    expect(longRun.statusCode).toBe(400);
    expect(errorMessage(longRun.json())).toMatch(/name.*At most 100 characters/);
    const longProject = await start('run', `me/${'p'.repeat(NAME_MAX + 1)}`);
    expect(longProject.statusCode).toBe(400);
    expect(errorMessage(longProject.json())).toMatch(/project.*at most 100 characters/);
  });
});
