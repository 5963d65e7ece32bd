import { MODEL_DEFAULTS, type Model, type Project, type TrashItem } from '@sightline/contracts';

/** Factories for web tests: complete API shapes with the contract's defaults, overridable per test. */
const iso = (d: string | number | Date) => new Date(d).toISOString();
const OWNER = { uid: 'AbCdEfGhIjKlMnOpQrSt', username: 'ada' };
const OWNER_ABILITIES = { canEdit: true, canDelete: true, canShare: true };

let seq = 0;
const nextId = (prefix: string) => `${prefix}${String((seq += 1)).padStart(20 - prefix.length, '0')}`;

export function makeModel(overrides: Partial<Model> & { train?: Partial<Model['dates']['train']> } = {}): Model {
  const { train, ...rest } = overrides;
  const id = rest.id ?? nextId('m');
  const dates: Model['dates'] = {
    created: iso('2026-01-01T10:00:00Z'),
    updated: iso('2026-01-01T10:00:00Z'),
    archived: null,
    deleted: null,
    ...rest.dates,
    train: { start: null, end: null, heartbeat: null, initialized: null, ...rest.dates?.train, ...train },
  };
  return {
    id,
    slug: id.toLowerCase(),
    config: { ...MODEL_DEFAULTS.config },
    dataset: { id: null, name: null, filepath: null, url: null, type: null, version: null },
    lineage: { architecture: { id: null, name: null }, parent: { id: null, name: null, path: null, url: null } },
    meta: { name: MODEL_DEFAULTS.name, description: '', privacy: 'private' },
    project: { id: null, name: null },
    owner: OWNER,
    order: null,
    task: 'detect',
    names: [],
    exports: {},
    files: [],
    totals: { bytes: 0 },
    team: { id: null },
    metrics: { epochs: 0, best: null },
    abilities: OWNER_ABILITIES,
    origin: 'created',
    imageSize: MODEL_DEFAULTS.config.imageSize,
    status: 'new',
    training: null,
    ...rest,
    dates,
  };
}

export function makeProject(overrides: Partial<Project> = {}): Project {
  const id = overrides.id ?? nextId('p');
  return {
    id,
    slug: id.toLowerCase(),
    dates: { created: iso('2026-01-01T09:00:00Z'), updated: iso('2026-01-02T09:00:00Z'), archived: null, deleted: null },
    meta: { name: 'Untitled', description: '', privacy: 'private' },
    image: { path: null, bytes: 0, url: null },
    models: { count: 0, exports: {} },
    owner: OWNER,
    team: { id: null },
    totals: { models: 0, bytes: 0 },
    abilities: OWNER_ABILITIES,
    ...overrides,
  };
}

export function makeTrashItem(overrides: Partial<TrashItem> & Pick<TrashItem, 'type' | 'name'>): TrashItem {
  const deleted = overrides.deleted ?? iso(Date.now() - 86_400_000);
  return {
    id: nextId(overrides.type[0]!),
    deleted,
    expires: iso(new Date(deleted).getTime() + 30 * 86_400_000),
    bytes: 0,
    parent: null,
    ...overrides,
  };
}

export const READ_ONLY = { canEdit: false, canDelete: false, canShare: false };

/** A `fetch` stand-in answering `{data}` by "METHOD path" and recording every call. */
export function fakeApi(routes: Record<string, (body: unknown, url: string) => unknown>) {
  const calls: Array<{ method: string; path: string; body: unknown }> = [];
  const fetchImpl = async (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.pathname + input.search : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const path = url.split('?')[0]!;
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    calls.push({ method, path, body });
    const handler = routes[`${method} ${path}`];
    if (!handler) return new Response(JSON.stringify({ error: { code: 'error/not-found', message: `no route ${method} ${path}` } }), { status: 404 });
    const data = handler(body, url);
    if (data instanceof Response) return data;
    return new Response(JSON.stringify({ data }), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch: fetchImpl, calls };
}
