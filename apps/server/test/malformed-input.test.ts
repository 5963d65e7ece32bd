/**
 * Every client mistake a 4xx (ADR 0024): each multipart and each JSON operation of the served
 * OpenAPI document is called with every malformation of its kind (no boundary, a body that is
 * not the form it claims, too many fields or files, the wrong content type, broken JSON...):
 * no answer may be 5xx. The four image and weights uploads are also checked for their exact 4xx
 * and message with real ids.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import path from 'node:path';
import { createTestApp, FIXTURES, multipart, type TestApp } from './support/harness.js';
import { buildApiKey, buildProject, buildUser } from './support/factories.js';

let t: TestApp;
let cookie: string;
let apiKey: string;
let projectId: string;
let teamId: string;
beforeAll(async () => {
  t = await createTestApp();
  const u = await buildUser(t.app);
  cookie = u.cookie;
  const h = { cookie, origin: 'http://localhost:3000' };
  apiKey = (await buildApiKey(t.app, h, { name: 'malformed' })).key;
  projectId = (await buildProject(t.app, h, { name: 'Malformed' })).id;
  await t.database.db.execute(sql`UPDATE users SET plan = 'pro' WHERE id = ${u.user.id}`);
  const team = await t.app.inject({ method: 'POST', url: '/v1/teams', headers: h, payload: { meta: { name: 'Malformed' } } });
  expect(team.statusCode, team.body).toBe(201);
  teamId = team.json().data.id;
});
afterAll(async () => {
  await t.close();
});

type Operation = { requestBody?: { content?: Record<string, unknown> } };
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Malformation {
  name: string;
  headers: Record<string, string>;
  payload: string | Buffer;
}

const B = 'xBOUNDARYx';
const form = (parts: string[]) => Buffer.from(`${parts.join('')}--${B}--\r\n`);
const field = (name: string, value: string) => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, filename: string) =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\r\n`;
const mp = { 'content-type': `multipart/form-data; boundary=${B}` };

const multipartMalformations: Malformation[] = [
  { name: 'multipart without a boundary', headers: { 'content-type': 'multipart/form-data' }, payload: form([file('file', 'a.png')]) },
  { name: 'multipart with an empty boundary', headers: { 'content-type': 'multipart/form-data; boundary=' }, payload: form([file('file', 'a.png')]) },
  { name: 'a body that does not use the boundary', headers: mp, payload: 'just some bytes, no parts at all' },
  {
    name: 'a body cut off inside a file',
    headers: mp,
    payload: `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`,
  },
  { name: 'a malformed part header', headers: mp, payload: `--${B}\r\nthis is not a header\r\n\r\nvalue\r\n--${B}--\r\n` },
  { name: '1,001 form fields', headers: mp, payload: form(Array.from({ length: 1001 }, (_, i) => field(`f${i}`, 'v'))) },
  { name: 'three files', headers: mp, payload: form([file('file', 'a.png'), file('file', 'b.png'), file('other', 'c.png')]) },
  { name: 'JSON instead of multipart', headers: { 'content-type': 'application/json' }, payload: '{"file":"a.png"}' },
  { name: 'text/plain instead of multipart', headers: { 'content-type': 'text/plain' }, payload: 'file=a.png' },
  { name: 'a url-encoded form instead of multipart', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'file=a.png' },
  { name: 'no content type', headers: {}, payload: Buffer.from('file') },
];

const jsonMalformations: Malformation[] = [
  { name: 'JSON sent as text/plain', headers: { 'content-type': 'text/plain' }, payload: '{"name":"x"}' },
  { name: 'broken JSON', headers: { 'content-type': 'application/json' }, payload: '{"name":' },
  { name: 'an empty JSON body', headers: { 'content-type': 'application/json' }, payload: '' },
  { name: 'a JSON array', headers: { 'content-type': 'application/json' }, payload: '[]' },
  { name: 'a JSON string', headers: { 'content-type': 'application/json' }, payload: '"x"' },
  { name: 'JSON null', headers: { 'content-type': 'application/json' }, payload: 'null' },
  { name: 'a JSON charset nobody speaks', headers: { 'content-type': 'application/json; charset=ebcdic' }, payload: '{}' },
  { name: 'multipart without a boundary', headers: { 'content-type': 'multipart/form-data' }, payload: form([field('name', 'x')]) },
  { name: 'a multipart form instead of JSON', headers: mp, payload: form([field('name', 'x')]) },
  { name: 'a url-encoded form instead of JSON', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=x' },
  { name: 'binary instead of JSON', headers: { 'content-type': 'application/octet-stream' }, payload: Buffer.from([0, 1, 2, 255]) },
  { name: 'no content type', headers: {}, payload: Buffer.from('{"name":"x"}') },
];

async function operations() {
  const doc = (await t.app.inject({ method: 'GET', url: '/v1/docs/json' })).json() as { paths: Record<string, Record<string, Operation>> };
  const ops: Array<{ method: Method; path: string; kind: 'multipart' | 'json' }> = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(methods)) {
      const content = op.requestBody?.content ?? {};
      if ('multipart/form-data' in content) ops.push({ method: m.toUpperCase() as Method, path, kind: 'multipart' });
      else if ('application/json' in content) ops.push({ method: m.toUpperCase() as Method, path, kind: 'json' });
    }
  }
  return ops;
}

const ids: Record<string, () => string> = { '/v1/projects/{id}': () => projectId, '/v1/teams/{id}': () => teamId };
const fill = (path: string) => {
  const prefix = Object.keys(ids).find((p) => path.startsWith(p));
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => (name === 'id' && prefix ? ids[prefix]!() : 'x1'));
};

describe('every client mistake on a multipart or JSON operation is a 4xx (ADR 0024)', () => {
  it('operations × malformations: 0 answers ≥ 500', { timeout: 240_000 }, async () => {
    const ops = await operations();
    const multipartOps = ops.filter((o) => o.kind === 'multipart');
    expect(multipartOps.map((o) => `${o.method} ${o.path}`)).toEqual(
      expect.arrayContaining(['POST /v1/users/me/image', 'POST /v1/projects/{id}/image', 'POST /v1/teams/{id}/image', 'POST /v1/models/upload']),
    );
    let tried = 0;
    const fivexx: string[] = [];
    for (const { method, path, kind } of ops) {
      for (const m of kind === 'multipart' ? multipartMalformations : jsonMalformations) {
        for (const auth of [{ cookie, origin: 'http://localhost:3000' }, { 'x-api-key': apiKey }]) {
          const res = await t.app.inject({ method, url: fill(path), headers: { ...auth, ...m.headers }, payload: m.payload });
          tried += 1;
          if (res.statusCode >= 500) fivexx.push(`${method} ${path} ${m.name} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
      }
    }
    const jsonOps = ops.length - multipartOps.length;
    console.info(
      `malformed requests: ${multipartOps.length} multipart operations × ${multipartMalformations.length} + ${jsonOps} JSON operations × ${jsonMalformations.length} malformations, 2 credentials each = ${tried} requests; ${fivexx.length} answered ≥ 500`,
    );
    expect(fivexx).toEqual([]);
    expect(tried).toBe(2 * (multipartOps.length * multipartMalformations.length + jsonOps * jsonMalformations.length));
  });

  it('the image and weights uploads answer a missing boundary, too many fields and too many files with a 4xx that says so', async () => {
    const h = { cookie, origin: 'http://localhost:3000' };
    for (const url of ['/v1/users/me/image', `/v1/projects/${projectId}/image`, `/v1/teams/${teamId}/image`, '/v1/models/upload']) {
      const noBoundary = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...h, 'content-type': 'multipart/form-data' },
        payload: form([file('file', 'a.png')]),
      });
      expect(noBoundary.statusCode, `${url}: ${noBoundary.body}`).toBe(400);
      expect(noBoundary.json().error.message).toMatch(/boundary/i);
      const fields = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...h, ...mp },
        payload: form(Array.from({ length: 1001 }, (_, i) => field(`f${i}`, 'v'))),
      });
      expect(fields.statusCode, `${url}: ${fields.body}`).toBe(413);
      expect(fields.json().error.message).toMatch(/too many form fields/i);
      const files = await t.app.inject({ method: 'POST', url, headers: { ...h, ...mp }, payload: form([file('file', 'a.pt'), file('file', 'b.pt')]) });
      expect(files.statusCode, `${url}: ${files.body}`).toBeGreaterThanOrEqual(400);
      expect(files.statusCode).toBeLessThan(500);
      const cut = await t.app.inject({
        method: 'POST',
        url,
        headers: { ...h, ...mp },
        payload: `--${B}\r\nContent-Disposition: form-data; name="file"; filename="a.pt"\r\n\r\nPK\x03\x04abc`,
      });
      expect(cut.statusCode, `${url}: ${cut.body}`).toBe(400);
      const json = await t.app.inject({ method: 'POST', url, headers: { ...h, 'content-type': 'application/json' }, payload: '{}' });
      expect(json.statusCode, `${url}: ${json.body}`).toBeGreaterThanOrEqual(400);
      expect(json.statusCode).toBeLessThan(500);
    }
    // A well-formed upload still works.
    const png = fs.readFileSync(path.join(FIXTURES, 'test-images-cls/blue_triangle/test_0002_0.png'));
    for (const url of ['/v1/users/me/image', `/v1/projects/${projectId}/image`, `/v1/teams/${teamId}/image`]) {
      const ok = multipart({}, { filename: 'a.png', content: png, contentType: 'image/png' });
      const res = await t.app.inject({ method: 'POST', url, headers: { ...h, ...ok.headers }, payload: ok.payload });
      expect(res.statusCode, `${url}: ${res.body.slice(0, 300)}`).toBe(200);
    }
  });
});
