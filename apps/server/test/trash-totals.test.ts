import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, FIXTURES, multipart, type TestApp } from './support/harness.js';
import { buildProject, buildUser } from './support/factories.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function upload(cookie: string, projectId: string, name: string) {
  const file = path.join(FIXTURES, 'shapes3-detect.onnx');
  const mp = multipart({ project_id: projectId, model_name: name }, { filename: 'w.onnx', content: fs.readFileSync(file) });
  const res = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie }, payload: mp.payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as string;
}

describe('trash sizes (issue 17: the total counted models twice)', () => {
  it('a project counts the models deleted with it; a model deleted before its project counts once, on its own row', async () => {
    const u = await buildUser(t.app);
    const h = { cookie: u.cookie };
    const p = await buildProject(t.app, h, { meta: { name: 'P' } });
    const alone = await upload(u.cookie, p.id, 'alone');
    await upload(u.cookie, p.id, 'with-project');
    const size = fs.statSync(path.join(FIXTURES, 'shapes3-detect.onnx')).size;
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/models/${alone}`, headers: h })).statusCode).toBeLessThan(300);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/projects/${p.id}`, headers: h })).statusCode).toBeLessThan(300);
    const items = (await t.app.inject({ method: 'GET', url: '/v1/trash', headers: h })).json().data as Array<{
      type: string;
      name: string;
      bytes: number;
      parent: unknown;
    }>;
    const project = items.find((i) => i.type === 'project')!;
    const single = items.find((i) => i.name === 'alone')!;
    const withProject = items.find((i) => i.name === 'with-project')!;
    expect(single.parent).toBeNull();
    expect(withProject.parent).not.toBeNull();
    expect(single.bytes).toBeGreaterThanOrEqual(size);
    expect(project.bytes).toBeGreaterThanOrEqual(withProject.bytes);
    expect(project.bytes).toBeLessThan(withProject.bytes + single.bytes);
    // what the page adds up: rows without a parent
    const total = items.filter((i) => !i.parent).reduce((s, i) => s + i.bytes, 0);
    expect(total).toBe(project.bytes + single.bytes);
  });
});
