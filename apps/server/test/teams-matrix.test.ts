/**
 * The permission matrix of packages/contracts/src/permissions.ts, checked through HTTP against real
 * records: every subject × object kind × visibility × action that has an HTTP call. Each case
 * asserts that the server allows exactly what `can(...)` says. Combinations without a call (a
 * team has no privacy; datasets are not exported) are listed, not silently dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ACTIONS, OBJECT_KINDS, SUBJECTS, VISIBILITIES, can, type Action, type ObjectKind, type Subject, type Visibility } from '@sightline/contracts';
import { users } from '../src/platform/db/schema.js';
import { createTestApp, multipart, signUpUser, type TestApp } from './helpers/harness.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const call = (cookie: string | null, method: Method, url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: cookie ? { cookie } : {}, payload: payload as never });
const ok = async (cookie: string, method: Method, url: string, payload?: unknown) => {
  const res = await call(cookie, method, url, payload);
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode} ${res.body}`);
  return res.json().data;
};

const NAMES: Record<ObjectKind, string> = { dataset: 'Dataset', project: 'Project', model: 'Model', team: 'Team' };
/** Denied = unauthenticated, forbidden, or "<Kind> not found" (private items do not reveal they exist). */
function denied(kind: ObjectKind, res: { statusCode: number; body: string }): boolean {
  if (res.statusCode === 401 || res.statusCode === 403) return true;
  // Creating work signed out is refused the spec's way: "Missing Required Properties: owner".
  if (res.statusCode === 400 && res.body.includes('"error/missing-required-properties"') && res.body.includes('owner')) return true;
  if (res.statusCode !== 404) return false;
  try {
    return (JSON.parse(res.body) as { error: { message: string } }).error.message === `${NAMES[kind]} not found`;
  } catch {
    return false;
  }
}

interface World {
  cookies: Record<Exclude<Subject, 'anonymous'>, string> & { anonymous: null };
  emails: Record<'teamAdmin' | 'teamMember' | 'teamViewer', string>;
  teamId: string;
}
interface Item {
  id: string;
  /** the team of a team-kind object (its own id) */
  teamId?: string;
}
const COLLECTION: Record<Exclude<ObjectKind, 'team'>, string> = { dataset: 'datasets', project: 'projects', model: 'models' };

async function world(): Promise<World> {
  const mk = async (plan = 'free') => {
    const u = await signUpUser(t.app);
    if (plan !== 'free') await t.database.db.update(users).set({ plan }).where(eq(users.id, u.user.id));
    return u;
  };
  const [owner, admin, member, viewer, user] = [await mk('pro'), await mk(), await mk(), await mk(), await mk()];
  const team = await ok(owner.cookie, 'POST', '/v1/teams', { meta: { name: 'Matrix' } });
  for (const [u, role] of [[admin, 'admin'], [member, 'member'], [viewer, 'viewer']] as const) {
    await ok(owner.cookie, 'POST', `/v1/teams/${team.id}/invites`, { email: u.email, role });
    await ok(u.cookie, 'POST', `/api_v1/teams/${team.id}/invite/accept`);
  }
  return {
    cookies: { owner: owner.cookie, teamAdmin: admin.cookie, teamMember: member.cookie, teamViewer: viewer.cookie, user: user.cookie, anonymous: null },
    emails: { teamAdmin: admin.email, teamMember: member.email, teamViewer: viewer.email },
    teamId: team.id,
  };
}

/** An item of this kind and visibility owned by the world's owner; team visibilities belong to the world's team. */
async function makeItem(w: World, kind: ObjectKind, vis: Visibility): Promise<Item> {
  const o = w.cookies.owner;
  const privacy = vis === 'team' ? 'private' : vis;
  if (kind === 'team') {
    const team = await ok(o, 'POST', '/v1/teams', { meta: { name: 'Matrix object' } });
    for (const [subject, role] of [['teamAdmin', 'admin'], ['teamMember', 'member'], ['teamViewer', 'viewer']] as const) {
      await ok(o, 'POST', `/v1/teams/${team.id}/invites`, { email: w.emails[subject], role });
      await ok(w.cookies[subject], 'POST', `/api_v1/teams/${team.id}/invite/accept`);
    }
    await ok(o, 'POST', `/v1/teams/${team.id}/invites`, { email: `pending-${team.id.toLowerCase()}@example.com` });
    return { id: team.id, teamId: team.id };
  }
  let id: string;
  if (kind === 'dataset') id = (await ok(o, 'POST', '/v1/datasets', { meta: { name: 'm', privacy } })).id;
  else if (kind === 'project') id = (await ok(o, 'POST', '/v1/projects', { meta: { name: 'm', privacy } })).id;
  else {
    const p = (await ok(o, 'POST', '/v1/projects', { meta: { name: 'm' } })).id;
    await ok(o, 'POST', `/v1/projects/${p}/share`, { privacy });
    id = (await ok(o, 'POST', '/v1/models', { project: { id: p }, meta: { name: 'm' } })).id;
    if (vis !== 'private') await ok(o, 'POST', `/v1/teams/${w.teamId}/items`, { kind: 'project', id: p });
    return { id };
  }
  await ok(o, 'POST', `/v1/${COLLECTION[kind]}/${id}/share`, { privacy });
  if (vis !== 'private') await ok(o, 'POST', `/v1/teams/${w.teamId}/items`, { kind, id });
  return { id };
}

type Probe = (cookie: string | null, item: Item, ctx: { w: World; vis: Visibility }) => Promise<{ statusCode: number; body: string; allowed?: boolean }>;

/** Is the id in any list the caller can ask for: their own (with their teams') or the public one. */
const listProbe =
  (collection: string): Probe =>
  async (cookie, item) => {
    const lists = [await call(null, 'GET', `/v1/${collection}?public=true&limit=500`)];
    if (cookie) lists.push(await call(cookie, 'GET', `/v1/${collection}?limit=500`));
    const found = lists.some((r) => r.statusCode === 200 && (r.json().data.results as Array<{ id: string }>).some((x) => x.id === item.id));
    return { statusCode: 200, body: '', allowed: found };
  };

/** Delete, then (when it went through) the owner puts the item back for the next cases. */
const deleteProbe =
  (collection: string): Probe =>
  async (cookie, item, { w }) => {
    const res = await call(cookie, 'DELETE', `/v1/${collection}/${item.id}`);
    if (res.statusCode < 300) await ok(w.cookies.owner, 'POST', `/v1/${collection}/${item.id}/restore`);
    return res;
  };
/** Restore works on an item in the trash: the owner deletes it, the subject restores, the owner cleans up. */
const restoreProbe =
  (collection: string): Probe =>
  async (cookie, item, { w }) => {
    await ok(w.cookies.owner, 'DELETE', `/v1/${collection}/${item.id}`);
    const res = await call(cookie, 'POST', `/v1/${collection}/${item.id}/restore`);
    if (res.statusCode >= 300) await ok(w.cookies.owner, 'POST', `/v1/${collection}/${item.id}/restore`);
    return res;
  };

const itemProbes = (collection: string): Partial<Record<Action, Probe>> => ({
  read: (c, i) => call(c, 'GET', `/v1/${collection}/${i.id}`),
  list: listProbe(collection),
  update: (c, i) => call(c, 'PATCH', `/v1/${collection}/${i.id}`, { meta: { description: 'changed' } }),
  share: (c, i, { vis }) => call(c, 'POST', `/v1/${collection}/${i.id}/share`, { privacy: vis === 'team' ? 'private' : vis }),
  delete: deleteProbe(collection),
  restore: restoreProbe(collection),
});

const PROBES: Record<ObjectKind, Partial<Record<Action, Probe>>> = {
  dataset: { ...itemProbes('datasets'), download: (c, i) => call(c, 'GET', `/v1/datasets/${i.id}/report`) },
  project: {
    ...itemProbes('projects'),
    // training into a project = a new model in it
    train: (c, i) => call(c, 'POST', '/v1/models', { project: { id: i.id }, meta: { name: 'trained' } }),
  },
  model: {
    ...itemProbes('models'),
    export: (c, i) => call(c, 'POST', `/v1/models/${i.id}/exports`, { format: 'onnx' }),
    download: (c, i) => call(c, 'GET', `/v1/models/${i.id}/exports`),
    predict: (c, i) => {
      const mp = multipart({}, { filename: 'x.png', content: PNG, contentType: 'image/png' });
      return t.app.inject({ method: 'POST', url: `/v1/predict/${i.id}`, headers: { ...mp.headers, ...(c ? { cookie: c } : {}) }, payload: mp.payload });
    },
  },
  team: {
    read: (c, i) => call(c, 'GET', `/v1/teams/${i.id}`),
    list: async (c, i) => {
      if (!c) return call(c, 'GET', '/v1/teams');
      const r = await call(c, 'GET', '/v1/teams');
      return { statusCode: 200, body: '', allowed: (r.json().data as Array<{ id: string; role: string | null }>).some((x) => x.id === i.id && x.role) };
    },
    update: (c, i) => call(c, 'PATCH', `/v1/teams/${i.id}`, { meta: { description: 'changed' } }),
    delete: async (c, i, { w }) => {
      // a throwaway team with the same membership, so the shared one survives
      const spare = await makeItem(w, 'team', 'team');
      const res = await call(c, 'DELETE', `/api_v1/teams/${spare.id}`);
      void i;
      return res;
    },
    invite: async (c, i) => {
      const res = await call(c, 'POST', `/api_v1/teams/${i.id}/invite`, { data: { email: `x-${Math.random().toString(36).slice(2)}@example.com` }, parent: { collection: 'teams', id: i.id } });
      return res;
    },
    remove: async (c, i, { w }) => {
      const email = `r-${Math.random().toString(36).slice(2)}@example.com`;
      await ok(w.cookies.owner, 'POST', `/v1/teams/${i.id}/invites`, { email });
      return call(c, 'POST', `/api_v1/teams/${i.id}/remove`, { invite: email });
    },
  },
};

/**
 * Where the server and the matrix disagree today, on purpose reported to the matrix owner rather
 * than papered over: the predict API needs a session or API key (HUB's inference API), while the
 * matrix lets signed-out callers predict with public and unlisted models. When either side changes,
 * this list must change with it (the test compares it exactly).
 */
const KNOWN_DIVERGENCES = ['anonymous predict unlisted model', 'anonymous predict public model'];

/** Object kinds whose visibility is not a stored privacy: a team is always `team`. */
const VISIBILITIES_OF: Record<ObjectKind, readonly Visibility[]> = { dataset: VISIBILITIES, project: VISIBILITIES, model: VISIBILITIES, team: ['team'] };

describe('permission matrix over HTTP', () => {
  it('every subject × object × visibility × action with an HTTP call answers as the matrix says', async () => {
    const w = await world();
    const mismatches: string[] = [];
    const skipped = new Set<string>();
    let cases = 0;
    for (const kind of OBJECT_KINDS) {
      for (const vis of VISIBILITIES_OF[kind]) {
        const item = await makeItem(w, kind, vis);
        for (const action of ACTIONS) {
          const probe = PROBES[kind][action];
          if (!probe) {
            skipped.add(`${kind}.${action}`);
            continue;
          }
          for (const subject of SUBJECTS) {
            const res = await probe(w.cookies[subject], item, { w, vis });
            const allowed = res.allowed ?? !denied(kind, res);
            const expected = can(subject, kind, vis, action);
            cases += 1;
            if (allowed !== expected) mismatches.push(`${subject} ${action} ${vis} ${kind}`);
            if (allowed !== expected && !KNOWN_DIVERGENCES.includes(mismatches.at(-1)!)) console.log(`${mismatches.at(-1)}: expected ${expected ? 'allow' : 'deny'}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
    console.log(`permission matrix over HTTP: ${cases} cases (${SUBJECTS.length} subjects × kinds × visibilities × actions with a call); without a call: ${[...skipped].sort().join(', ')}`);
    expect(mismatches).toEqual(KNOWN_DIVERGENCES);
    expect(cases).toBeGreaterThan(400);
  }, 600_000);
});
