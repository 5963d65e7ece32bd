/**
 * The permission matrix of packages/contracts/src/permissions.ts, checked through HTTP against real
 * records: every caller × object kind × visibility × action that has an HTTP call, the callers
 * generated from the matrix's team roles (TEAM_ROLES through subjectForRole), so a role added later
 * is tried on every operation. Each case asserts that the server allows exactly what `can(...)`
 * says, including the actions that change where an item lives (share, move, transfer: ADR 0023) —
 * a team member taking a team model into their own project is one of them. Combinations without a
 * call (a team has no privacy; datasets are not exported) are listed, not silently dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import {
  ACTIONS,
  OBJECT_KINDS,
  TEAM_ROLES,
  VISIBILITIES,
  can,
  subjectForRole,
  type Action,
  type ObjectKind,
  type Subject,
  type TeamMemberRole,
  type Visibility,
} from '@sightline/contracts';
import { users } from '../src/platform/db/schema.js';
import { createTestApp, multipart, type TestApp } from './support/harness.js';
import { buildDataset, buildModel, buildProject, buildTeam, buildUser } from './support/factories.js';
import { shapes3Dataset } from './support/wire.js';

const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

let t: TestApp;
// Starting the app takes long on a loaded machine.
beforeAll(async () => {
  t = await createTestApp();
}, 300_000);
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

/**
 * Who calls: the items' owner, one user per stored team role (TEAM_ROLES, so a role added later
 * is covered without editing this test), any other signed-in user, and a signed-out caller. The
 * items' owner is a plain member of the team, so the team's owner role meets the items as a team
 * admin (subjectForRole) and not as their owner.
 */
const ITEM_OWNER_ROLE: TeamMemberRole = 'member';
type Caller = 'itemOwner' | `role:${TeamMemberRole}` | 'user' | 'anonymous';
const CALLERS: readonly Caller[] = ['itemOwner', ...TEAM_ROLES.map((r) => `role:${r}` as const), 'user', 'anonymous'];

/** The matrix subject of a caller for an object of this kind. */
function subjectOf(caller: Caller, kind: ObjectKind): Subject {
  if (caller === 'user' || caller === 'anonymous') return caller;
  if (caller === 'itemOwner') return kind === 'team' ? subjectForRole(ITEM_OWNER_ROLE, kind) : 'owner';
  return subjectForRole(caller.slice(5) as TeamMemberRole, kind);
}

interface World {
  cookies: Record<Caller, string | null>;
  emails: Record<string, string>;
  uids: Record<string, string>;
  /** the team the items belong to */
  teamId: string;
  /** a second team every signed-in caller is a member of: where `transfer` takes items */
  otherTeamId: string;
  /** each signed-in caller's own private project (no team): where `transfer` takes models */
  ownProject: Partial<Record<Caller, string>>;
}
interface Item {
  id: string;
  /** the team of a team-kind object (its own id) */
  teamId?: string;
  /** a model's project, and a second one in the same place (same team and privacy) for `move` */
  projectId?: string;
  sibling?: string;
}
const COLLECTION: Record<Exclude<ObjectKind, 'team'>, string> = { dataset: 'datasets', project: 'projects', model: 'models' };

async function joinAs(owner: string, teamId: string, cookie: string, email: string, role: TeamMemberRole) {
  await ok(owner, 'POST', `/v1/teams/${teamId}/invites`, { email, role });
  await ok(cookie, 'POST', `/api_v1/teams/${teamId}/invite/accept`);
}

async function world(): Promise<World> {
  const mk = async (plan = 'free') => {
    const u = await buildUser(t.app);
    if (plan !== 'free') await t.database.db.update(users).set({ plan }).where(eq(users.id, u.user.id));
    return u;
  };
  const teamOwner = await mk('pro');
  const cookies = { anonymous: null } as Record<Caller, string | null>;
  const emails: Record<string, string> = {};
  const uids: Record<string, string> = {};
  const team = await buildTeam(t.app, teamOwner.cookie, { meta: { name: 'Matrix' } });
  const otherTeam = await buildTeam(t.app, teamOwner.cookie, { meta: { name: 'Elsewhere' } });
  for (const caller of CALLERS) {
    if (caller === 'anonymous') continue;
    const u = caller === 'role:owner' ? teamOwner : await mk();
    cookies[caller] = u.cookie;
    emails[caller] = u.email;
    uids[caller] = u.user.id;
    if (caller !== 'role:owner') {
      if (caller !== 'user')
        await joinAs(teamOwner.cookie, team.id, u.cookie, u.email, caller === 'itemOwner' ? ITEM_OWNER_ROLE : (caller.slice(5) as TeamMemberRole));
      await joinAs(teamOwner.cookie, otherTeam.id, u.cookie, u.email, 'member');
    }
  }
  const ownProject: Partial<Record<Caller, string>> = {};
  for (const caller of CALLERS) if (cookies[caller]) ownProject[caller] = (await buildProject(t.app, cookies[caller]!, { meta: { name: 'own' } })).id;
  return { cookies, emails, uids, teamId: team.id, otherTeamId: otherTeam.id, ownProject };
}

/** An item of this kind and visibility owned by the world's item owner; visibilities but `private` belong to the world's team. */
async function makeItem(w: World, kind: ObjectKind, vis: Visibility): Promise<Item> {
  const o = w.cookies.itemOwner!;
  const privacy = vis === 'team' ? 'private' : vis;
  if (kind === 'team') {
    const owner = w.cookies['role:owner']!;
    const team = await buildTeam(t.app, owner, { meta: { name: 'Matrix object' } });
    for (const caller of CALLERS) {
      if (caller === 'role:owner' || caller === 'user' || caller === 'anonymous') continue;
      await joinAs(owner, team.id, w.cookies[caller]!, w.emails[caller]!, caller === 'itemOwner' ? ITEM_OWNER_ROLE : (caller.slice(5) as TeamMemberRole));
    }
    await ok(owner, 'POST', `/v1/teams/${team.id}/invites`, { email: `pending-${team.id.toLowerCase()}@example.com` });
    return { id: team.id, teamId: team.id };
  }
  let id: string;
  if (kind === 'dataset') id = (await buildDataset(t.app, o, { meta: { name: 'm', privacy } })).id;
  else if (kind === 'project') id = (await buildProject(t.app, o, { meta: { name: 'm', privacy } })).id;
  else {
    const project = async () => {
      const p = (await buildProject(t.app, o, { meta: { name: 'm' } })).id as string;
      await ok(o, 'POST', `/v1/projects/${p}/share`, { privacy });
      if (vis !== 'private') await ok(o, 'POST', `/v1/teams/${w.teamId}/items`, { kind: 'project', id: p });
      return p;
    };
    const [p, sibling] = [await project(), await project()];
    id = (await buildModel(t.app, o, { project: { id: p }, meta: { name: 'm' } })).id;
    return { id, projectId: p, sibling };
  }
  await ok(o, 'POST', `/v1/${COLLECTION[kind]}/${id}/share`, { privacy });
  if (vis !== 'private') await ok(o, 'POST', `/v1/teams/${w.teamId}/items`, { kind, id });
  return { id };
}

type Probe = (
  cookie: string | null,
  item: Item,
  ctx: { w: World; vis: Visibility; caller: Caller },
) => Promise<{ statusCode: number; body: string; allowed?: boolean; skip?: boolean }>;
const SKIP = { statusCode: 0, body: '', skip: true };

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
    if (res.statusCode < 300) await ok(w.cookies.itemOwner!, 'POST', `/v1/${collection}/${item.id}/restore`);
    return res;
  };
/** Restore works on an item in the trash: the owner deletes it, the subject restores, the owner cleans up. */
const restoreProbe =
  (collection: string): Probe =>
  async (cookie, item, { w }) => {
    await ok(w.cookies.itemOwner!, 'DELETE', `/v1/${collection}/${item.id}`);
    const res = await call(cookie, 'POST', `/v1/${collection}/${item.id}/restore`);
    if (res.statusCode >= 300) await ok(w.cookies.itemOwner!, 'POST', `/v1/${collection}/${item.id}/restore`);
    return res;
  };

/**
 * Change where a dataset or project lives (ADR 0023). `move`: out of its team (a team item only);
 * `transfer`: into another team the caller belongs to. The item owner puts it back after a success.
 */
const teamMoveProbes = (kind: 'dataset' | 'project'): Partial<Record<Action, Probe>> => ({
  move: async (c, i, { w, vis }) => {
    if (vis === 'private') return SKIP; // no team to move it out of
    const res = await call(c, 'DELETE', `/v1/teams/${w.teamId}/items/${kind}/${i.id}`);
    if (res.statusCode < 300) await ok(w.cookies.itemOwner!, 'POST', `/v1/teams/${w.teamId}/items`, { kind, id: i.id });
    return res;
  },
  transfer: async (c, i, { w, vis }) => {
    const res = await call(c, 'POST', `/v1/teams/${w.otherTeamId}/items`, { kind, id: i.id });
    if (res.statusCode < 300) {
      if (vis === 'private') await ok(w.cookies.itemOwner!, 'DELETE', `/v1/teams/${w.otherTeamId}/items/${kind}/${i.id}`);
      else await ok(w.cookies.itemOwner!, 'POST', `/v1/teams/${w.teamId}/items`, { kind, id: i.id });
    }
    return res;
  },
});

/** A model's `move` (to a sibling project in the same place) and `transfer` (to the caller's own project, outside the team); the owner moves it back. */
const modelMoveProbes: Partial<Record<Action, Probe>> = {
  move: async (c, i, { w }) => {
    const res = await call(c, 'POST', `/v1/models/${i.id}/transfer`, { projectId: i.sibling });
    if (res.statusCode < 300) await ok(w.cookies.itemOwner!, 'POST', `/v1/models/${i.id}/transfer`, { projectId: i.projectId });
    return res;
  },
  transfer: async (c, i, { w, caller }) => {
    const target = w.ownProject[caller] ?? w.ownProject.user!;
    const res = await call(c, 'POST', `/v1/models/${i.id}/transfer`, { projectId: target });
    if (res.statusCode < 300) await ok(w.cookies.itemOwner!, 'POST', `/v1/models/${i.id}/transfer`, { projectId: i.projectId });
    return res;
  },
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
  dataset: {
    ...itemProbes('datasets'),
    ...teamMoveProbes('dataset'),
    download: (c, i) => call(c, 'GET', `/v1/datasets/${i.id}/report`),
    // labelling (ADR 0039): rejecting every pending suggestion changes nothing else
    label: (c, i) => call(c, 'POST', `/v1/datasets/${i.id}/suggestions/reject`, { all: true }),
  },
  project: {
    ...itemProbes('projects'),
    ...teamMoveProbes('project'),
    // training into a project = a new model in it
    train: (c, i) => call(c, 'POST', '/v1/models', { project: { id: i.id }, meta: { name: 'trained' } }),
  },
  model: {
    ...itemProbes('models'),
    ...modelMoveProbes,
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
    // Handing the team over (to the items' owner, a member): on a throwaway team, so the shared one keeps its owner.
    transfer: async (c, _i, { w }) => {
      const spare = await makeItem(w, 'team', 'team');
      return call(c, 'PATCH', `/v1/teams/${spare.id}/members/${w.uids.itemOwner}`, { role: 'owner' });
    },
    invite: async (c, i) => {
      const res = await call(c, 'POST', `/api_v1/teams/${i.id}/invite`, {
        data: { email: `x-${Math.random().toString(36).slice(2)}@example.com` },
        parent: { collection: 'teams', id: i.id },
      });
      return res;
    },
    remove: async (c, i, { w }) => {
      const email = `r-${Math.random().toString(36).slice(2)}@example.com`;
      await ok(w.cookies['role:owner']!, 'POST', `/v1/teams/${i.id}/invites`, { email });
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
  it('every caller (item owner, each team role, others) × object × visibility × action with an HTTP call answers as the matrix says', async () => {
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
          for (const caller of CALLERS) {
            const res = await probe(w.cookies[caller], item, { w, vis, caller });
            if (res.skip) {
              skipped.add(`${kind}.${action} (${vis})`);
              continue;
            }
            const subject = subjectOf(caller, kind);
            const allowed = res.allowed ?? !denied(kind, res);
            const expected = can(subject, kind, vis, action);
            cases += 1;
            if (allowed !== expected) mismatches.push(`${subject} ${action} ${vis} ${kind}`);
            if (allowed !== expected && !KNOWN_DIVERGENCES.includes(mismatches.at(-1)!))
              console.log(`${caller} → ${mismatches.at(-1)}: expected ${expected ? 'allow' : 'deny'}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          }
        }
      }
    }
    console.log(
      `permission matrix over HTTP: ${cases} subject × object × action cases (${CALLERS.length} callers: item owner, team roles ${TEAM_ROLES.join('/')}, user, anonymous); without a call: ${[...skipped].sort().join(', ')}`,
    );
    expect(mismatches).toEqual(KNOWN_DIVERGENCES);
    expect(cases).toBeGreaterThan(600);
  }, 1_200_000);
});

/**
 * Links are bound to their holder as well as their item (ADR 0023): for every team role that can be
 * removed, a member gets the four kinds of link of the team's dataset and model (image, thumbnail,
 * archive, weights); once the owner removes them, all four stop working within a second, while
 * the same links of a member who stayed keep working.
 */
describe('links of a removed team member', () => {
  it("every removable role: its four links die within 1 s of the removal; a remaining member's live on", async () => {
    const owner = await buildUser(t.app);
    await t.database.db.update(users).set({ plan: 'pro' }).where(eq(users.id, owner.user.id));
    const team = await buildTeam(t.app, owner.cookie, { meta: { name: 'Links' } });
    const dataset = await shapes3Dataset(t, owner.user.id, 'links-team');
    const weights = Buffer.alloc(4096, 3);
    weights.write('PK\u0003\u0004', 0, 'latin1');
    const mp = multipart({ model_name: 'links', project_name: 'Links' }, { filename: 'best.pt', content: weights });
    const up = await t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { cookie: owner.cookie, ...mp.headers }, payload: mp.payload });
    expect(up.statusCode).toBe(201);
    const modelId = up.json().data.id as string;
    const projectId = (await ok(owner.cookie, 'GET', `/v1/models/${modelId}`)).project.id as string;
    await ok(owner.cookie, 'POST', `/v1/teams/${team.id}/items`, { kind: 'dataset', id: dataset.id });
    await ok(owner.cookie, 'POST', `/v1/teams/${team.id}/items`, { kind: 'project', id: projectId });

    const linksOf = async (cookie: string) => {
      const first = (await ok(cookie, 'GET', `/v1/datasets/${dataset.id}/images?limit=5`)).results[0] as { thumbUrl: string; url: string };
      const archive = (await ok(cookie, 'GET', `/v1/datasets/${dataset.id}/download`)).url as string;
      const files = (await ok(cookie, 'GET', `/v1/models/${modelId}`)).files as Array<{ kind: string; url: string }>;
      return { images: first.url, thumbnails: first.thumbUrl, archive, weights: files.find((f) => f.kind === 'best')!.url };
    };
    const statuses = async (links: Record<string, string>) => {
      const out: Record<string, number> = {};
      for (const [kind, url] of Object.entries(links)) out[kind] = (await t.app.inject({ method: 'GET', url })).statusCode;
      return out;
    };
    const allOk = { images: 200, thumbnails: 200, archive: 200, weights: 200 };

    const stays = await buildUser(t.app);
    await joinAs(owner.cookie, team.id, stays.cookie, stays.email, 'viewer');
    const staying = await linksOf(stays.cookie);
    let cases = 0;
    for (const role of TEAM_ROLES.filter((r) => r !== 'owner')) {
      const member = await buildUser(t.app);
      await joinAs(owner.cookie, team.id, member.cookie, member.email, role);
      const links = await linksOf(member.cookie);
      expect(await statuses(links), role).toEqual(allOk);
      await ok(owner.cookie, 'DELETE', `/v1/teams/${team.id}/members/${member.user.id}`);
      const t0 = Date.now();
      const after = await statuses(links);
      expect(Date.now() - t0).toBeLessThan(1000);
      for (const [kind, code] of Object.entries(after)) expect([403, 404], `${role} ${kind}: ${code}`).toContain(code);
      cases += Object.keys(after).length;
    }
    expect(await statuses(staying)).toEqual(allOk);
    console.log(`links of a removed member: ${cases} role × link cases (${TEAM_ROLES.length - 1} removable roles × 4 kinds)`);
  }, 600_000);
});
