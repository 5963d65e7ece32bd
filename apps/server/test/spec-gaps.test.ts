import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { users } from '../src/platform/db/schema.js';
import { createTestApp, multipart, type TestApp } from './support/harness.js';
import { buildDataset, buildModel, buildProject, buildTeam, buildUser } from './support/factories.js';

/**
 * Spec items that were written down but never reachable: usage counters in the user document
 * (§3), archiving as a user action (§4 dates.archived) and SVG images (§3, §8). docs/spec-mapping.md
 * says how each maps onto the product.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const req = (cookie: string, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, payload: payload as never });
const created = async (cookie: string, url: string, payload: unknown) => {
  const res = await req(cookie, 'POST', url, payload);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: string };
};
const me = async (cookie: string) => (await req(cookie, 'GET', '/v1/users/me')).json().data as { usage: Record<string, number> };

describe('usage counters per collection in the user document (spec §3)', () => {
  it('counts datasets, projects, models and owned teams not in the trash, and keeps the count true after changes', async () => {
    const u = await buildUser(t.app);
    expect((await me(u.cookie)).usage).toEqual({ datasets: 0, projects: 0, models: 0, teams: 0 });

    const project = await buildProject(t.app, u.cookie, { meta: { name: 'Birds' } });
    await buildModel(t.app, u.cookie, { meta: { name: 'm1' }, project: { id: project.id } });
    await buildModel(t.app, u.cookie, { meta: { name: 'm2' }, project: { id: project.id } });
    await buildDataset(t.app, u.cookie, { meta: { name: 'Cats' } });
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, u.user.id));
    await buildTeam(t.app, u.cookie, { meta: { name: 'Crew' } });
    // The counts are cached per instance and evicted by the triggers' NOTIFY (migration 0024).
    await vi.waitFor(async () => expect((await me(u.cookie)).usage).toEqual({ datasets: 1, projects: 1, models: 2, teams: 1 }), { timeout: 5000 });

    // PATCH answers the same document.
    const patched = await req(u.cookie, 'PATCH', '/v1/users/me', { firstName: 'Ada' });
    expect(patched.json().data.usage).toEqual({ datasets: 1, projects: 1, models: 2, teams: 1 });

    // The project and its two models go to the trash together: out of the counts.
    expect((await req(u.cookie, 'DELETE', `/v1/projects/${project.id}`)).statusCode).toBe(200);
    await vi.waitFor(async () => expect((await me(u.cookie)).usage).toEqual({ datasets: 1, projects: 0, models: 0, teams: 1 }), { timeout: 5000 });
  });
});

describe('archiving as a user action (spec §4: dates.archived, lists hide archived)', () => {
  for (const kind of ['datasets', 'projects', 'models'] as const) {
    it(`archives and unarchives ${kind}: hidden from the list unless includeArchived=true`, async () => {
      const u = await buildUser(t.app);
      const other = await buildUser(t.app);
      const project = kind === 'models' ? await buildProject(t.app, u.cookie, { meta: { name: 'Home of the model' } }) : null;
      const item = await created(u.cookie, `/v1/${kind}`, { meta: { name: `${kind} one` }, ...(project ? { project: { id: project.id } } : {}) });
      const listed = async (extra = '') =>
        ((await req(u.cookie, 'GET', `/v1/${kind}?limit=100${extra}`)).json().data.results as Array<{ id: string; dates: { archived: string | null } }>).map(
          (r) => [r.id, r.dates.archived !== null],
        );

      // Someone who cannot even read it is told it is not there; the owner archives.
      expect((await req(other.cookie, 'POST', `/v1/${kind}/${item.id}/archive`)).statusCode).toBe(404);
      const archived = await req(u.cookie, 'POST', `/v1/${kind}/${item.id}/archive`);
      expect(archived.statusCode, archived.body).toBe(200);
      expect(archived.json().data.dates.archived).toEqual(expect.any(String));
      expect(await listed()).toEqual([]);
      expect(await listed('&includeArchived=true')).toEqual([[item.id, true]]);
      // Still readable by id (links keep working).
      expect((await req(u.cookie, 'GET', `/v1/${kind}/${item.id}`)).statusCode).toBe(200);

      const back = await req(u.cookie, 'POST', `/v1/${kind}/${item.id}/unarchive`);
      expect(back.statusCode, back.body).toBe(200);
      expect(back.json().data.dates.archived).toBeNull();
      expect(await listed()).toEqual([[item.id, false]]);
    });
  }

  it('lets a team member who may not delete the item not archive it either (403)', async () => {
    const owner = await buildUser(t.app);
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, owner.user.id));
    const mate = await buildUser(t.app);
    const team = await buildTeam(t.app, owner.cookie, { meta: { name: 'Crew' } });
    expect(
      (
        await req(owner.cookie, 'POST', `/api_v1/teams/${team.id}/invite`, {
          data: { email: mate.email, role: 'member' },
          parent: { collection: 'teams', id: team.id, name: 'Crew' },
        })
      ).statusCode,
    ).toBe(201);
    expect((await req(mate.cookie, 'POST', `/api_v1/teams/${team.id}/invite/accept`)).statusCode).toBe(200);
    const project = await buildProject(t.app, owner.cookie, { meta: { name: 'Shared' } });
    const added = await req(owner.cookie, 'POST', `/v1/teams/${team.id}/items`, { kind: 'project', id: project.id });
    expect(added.statusCode, added.body).toBeLessThan(300);
    expect((await req(mate.cookie, 'POST', `/v1/projects/${project.id}/archive`)).statusCode).toBe(403);
    expect((await req(owner.cookie, 'POST', `/v1/projects/${project.id}/archive`)).statusCode).toBe(200);
  });
});

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
const hostileSvg = Buffer.from(
  `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="64" height="64" onload="alert(1)">
  <script>alert(document.cookie)</script>
  <image xlink:href="http://127.0.0.1:9/steal.png" width="10" height="10"/>
  <rect width="64" height="64" fill="#2a6ef2" onclick="alert(2)"/>
  <circle cx="32" cy="32" r="16" fill="url(#g)"/>
  <defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>
</svg>`,
);
const svgFile = (content: Buffer, filename = 'logo.svg') => multipart({}, { filename, content, contentType: 'image/svg+xml' });

describe('SVG images for profile, project and team (spec §3 images; §8 SVG messages)', () => {
  it('accepts an SVG cover, profile image and team logo, drawn into a PNG without its script, handlers or outside references', async () => {
    const u = await buildUser(t.app);
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, u.user.id));
    const project = await buildProject(t.app, u.cookie, { meta: { name: 'Covered' } });
    const team = await buildTeam(t.app, u.cookie, { meta: { name: 'Logos' } });
    const urls: string[] = [];
    for (const url of [`/v1/projects/${project.id}/image`, '/v1/users/me/image', `/v1/teams/${team.id}/image`]) {
      const body = svgFile(hostileSvg);
      const res = await t.app.inject({ method: 'POST', url, headers: { cookie: u.cookie, ...body.headers }, payload: body.payload });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      const data = res.json().data;
      urls.push(data.image?.url ?? data.image ?? data.meta?.image?.url);
    }
    for (const url of urls) {
      expect(url, 'an image link').toMatch(/^\//);
      const served = await t.app.inject({ method: 'GET', url, headers: { cookie: u.cookie } });
      expect(served.statusCode, url).toBe(200);
      expect(served.rawPayload.subarray(0, 4).equals(PNG_MAGIC), url).toBe(true);
      expect(served.rawPayload.includes(Buffer.from('<script')), url).toBe(false);
    }
  });

  it("answers 'Loaded file is not valid SVG' for a file sent as SVG that is not one, and for entity declarations", async () => {
    const u = await buildUser(t.app);
    const project = await buildProject(t.app, u.cookie, { meta: { name: 'Broken' } });
    for (const content of [
      Buffer.from('<html><body>not an svg</body></html>'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/>'),
      Buffer.from('<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'),
      Buffer.from([0xff, 0xfe, 0x00, 0x3c, 0x00]),
    ]) {
      const body = svgFile(content);
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/projects/${project.id}/image`,
        headers: { cookie: u.cookie, ...body.headers },
        payload: body.payload,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'error/invalid-svg', message: 'Loaded file is not valid SVG' });
    }
  });

  it("answers 'Error loading SVG' for an SVG document that cannot be drawn", async () => {
    const u = await buildUser(t.app);
    const body = svgFile(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="0" height="0"><rect width="1" height="1"/></svg>'));
    const res = await t.app.inject({ method: 'POST', url: '/v1/users/me/image', headers: { cookie: u.cookie, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'error/svg-load-failed', message: 'Error loading SVG' });
  });
});
