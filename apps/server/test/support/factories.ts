/**
 * Factories: one `build*()` per entity, each creating it through the public API as a user would
 * (so every row is valid and every side effect — events, usage, audit — happens) and returning the
 * response's `data`. Defaults make a minimal valid entity; pass only what the test is about.
 * `as` is the caller: a session cookie, or request headers (an API key, an origin…).
 */
import type { FastifyInstance } from 'fastify';
import type { ApiKey, Dataset, Model, Project, Team, Webhook } from '@sightline/contracts';
import { expect } from 'vitest';
import { newId } from '../../src/platform/ids.js';
import { sessionCookie, uniqueEmail } from './harness.js';

export type As = string | Record<string, string>;
const headersOf = (as: As) => (typeof as === 'string' ? { cookie: as } : as);

async function create(app: FastifyInstance, url: string, as: As, payload: object) {
  const res = await app.inject({ method: 'POST', url, headers: headersOf(as), payload });
  expect(res.statusCode, `POST ${url}: ${res.body}`).toBe(201);
  return res.json().data;
}

/** A signed-up, signed-in user (verification off) with its cookie; `cookie` is '' when verification is on. */
export async function buildUser(app: FastifyInstance, overrides: Partial<{ email: string; password: string; username: string; firstName: string }> = {}) {
  const email = overrides.email ?? uniqueEmail();
  const body = {
    email,
    password: overrides.password ?? 'correct-horse-9',
    username: overrides.username ?? `u${newId().slice(0, 10)}`,
    firstName: overrides.firstName ?? 'Test',
  };
  const res = await app.inject({ method: 'POST', url: '/v1/auth/signup', payload: body });
  if (res.statusCode !== 201) throw new Error(`signup failed ${res.statusCode}: ${res.body}`);
  const data = res.json().data;
  const cookie = data.verificationRequired ? '' : sessionCookie(res);
  return { user: data.user as { id: string; email: string; username: string; roles: string[] }, cookie, password: body.password, email };
}
export type BuiltUser = Awaited<ReturnType<typeof buildUser>>;

/** A project (POST /v1/projects); the server names an unnamed one. */
export async function buildProject(app: FastifyInstance, as: As, body: object = {}) {
  return (await create(app, '/v1/projects', as, body)) as Project;
}

/** A model (POST /v1/models); the server names an unnamed one. */
export async function buildModel(app: FastifyInstance, as: As, body: object = {}) {
  return (await create(app, '/v1/models', as, body)) as Model;
}

/** An empty dataset (POST /v1/datasets), detect task by default; upload its archive separately. */
export async function buildDataset(app: FastifyInstance, as: As, body: object = { meta: { name: 'Shapes' }, task: 'detect' }) {
  return (await create(app, '/v1/datasets', as, body)) as Dataset;
}

/** A team owned by the caller (POST /v1/teams). */
export async function buildTeam(app: FastifyInstance, as: As, body: object = { meta: { name: 'Team' } }) {
  return (await create(app, '/v1/teams', as, body)) as Team;
}

/** An API key of the caller (POST /v1/api-keys); `key` and `legacyKey` are the secret, shown once. */
export async function buildApiKey(app: FastifyInstance, as: As, body: object = { name: 'key' }) {
  return (await create(app, '/v1/api-keys', as, body)) as ApiKey & { key: string; legacyKey: string };
}

/** An outgoing webhook of the caller (POST /v1/webhooks). */
export async function buildWebhook(app: FastifyInstance, as: As, body: object) {
  return (await create(app, '/v1/webhooks', as, body)) as Webhook & { secret: string };
}

/** A GPU agent registration and its token (POST /v1/agents); `shared` agents serve every user (admins only). */
export async function buildAgent(app: FastifyInstance, as: As, body: { name: string; shared: boolean }) {
  return (await create(app, '/v1/agents', as, body)) as { agent: { id: string }; token: string };
}
