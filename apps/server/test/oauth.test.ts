import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import Provider, { type Configuration } from 'oidc-provider';
import type { LightMyRequestResponse } from 'fastify';
import { authIdentities, users } from '../src/platform/db/schema.js';
import { createTestApp, sessionCookie, uniqueEmail, type TestApp } from './support/harness.js';

/**
 * Social sign-in end to end against a real OpenID provider (oidc-provider) on loopback: discovery,
 * PKCE, the code exchange, ID token and userinfo all go over HTTP exactly as with a hosted IdP.
 * Only the browser is simulated: fetch with a cookie jar for the provider's pages, app.inject for
 * Sightline (whose public URL, http://localhost:3000, is not actually listening).
 */

const CLIENT_ID = 'sightline-test';
const CLIENT_SECRET = 'sightline-test-secret-0123456789';
const PUBLIC_URL = 'http://localhost:3000';
const CALLBACK_PATH = '/v1/auth/oauth/oidc/callback';
const STATE_COOKIE = 'sl_oauth';

interface IdpAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

interface Idp {
  issuer: string;
  /** accountId (what is typed into the dev login form) → claims; tests add accounts as they go */
  accounts: Map<string, IdpAccount>;
  /** PKCE methods seen at the authorization endpoint, to prove the client really sent a challenge */
  challengeMethods: string[];
  close(): Promise<void>;
}

async function startIdp(): Promise<Idp> {
  const accounts = new Map<string, IdpAccount>();
  const challengeMethods: string[] = [];
  // The issuer must contain the port, which is only known after listening: listen first, then
  // build the provider and hand requests to it.
  let handler: http.RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const configuration: Configuration = {
    clients: [
      {
        client_id: CLIENT_ID,
        client_secret: CLIENT_SECRET,
        redirect_uris: [`${PUBLIC_URL}${CALLBACK_PATH}`],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Require PKCE for this confidential client too, so a client that forgot the challenge fails.
    pkce: { required: () => true },
    async findAccount(_ctx, id) {
      const account = accounts.get(id);
      if (!account) return undefined;
      return { accountId: id, claims: () => ({ ...account }) };
    },
    // Fixed keys and lifetimes keep the provider from printing a notice for every default it uses.
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, Grant: 3600, IdToken: 600, Interaction: 600, Session: 3600 },
  };
  const provider = new Provider(issuer, configuration);
  provider.on('authorization.accepted', (ctx) => {
    challengeMethods.push(String(ctx.oidc.params?.code_challenge_method ?? 'none'));
  });
  handler = provider.callback();

  return {
    issuer,
    accounts,
    challengeMethods,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

/** A browser talking to the provider: manual redirects and a name → value cookie jar. */
class Browser {
  private jar = new Map<string, string>();

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {};
    if (this.jar.size) headers.cookie = [...this.jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) this.store(line);
    return res;
  }

  private store(line: string) {
    const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const expired = attrs.some((a) => {
      const [k = '', v = ''] = a.split('=');
      if (k.toLowerCase() === 'max-age') return Number(v) <= 0;
      if (k.toLowerCase() === 'expires') return Date.parse(v) <= Date.now();
      return false;
    });
    if (expired || value === '') this.jar.delete(name);
    else this.jar.set(name, value);
  }
}

/**
 * Follows the provider from the authorization URL, logging in as `accountId` and consenting when
 * asked, until it redirects back to Sightline. Returns the callback path and the prompts shown.
 */
async function authorizeAtProvider(browser: Browser, authorizationUrl: string, accountId: string) {
  const prompts: string[] = [];
  let url = authorizationUrl;
  for (let step = 0; step < 12; step++) {
    if (url.startsWith(`${PUBLIC_URL}/`)) {
      const back = new URL(url);
      return { callbackPath: `${back.pathname}${back.search}`, prompts };
    }
    const res = await browser.request(url);
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).href;
      continue;
    }
    const html = await res.text();
    if (res.status !== 200) throw new Error(`provider answered ${res.status} at ${url}: ${html.slice(0, 500)}`);
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (!action || !prompt) throw new Error(`unexpected provider page at ${url}: ${html.slice(0, 500)}`);
    prompts.push(prompt);
    const form: Record<string, string> = prompt === 'login' ? { prompt, login: accountId, password: 'any' } : { prompt };
    const submitted = await browser.request(new URL(action, url).href, { method: 'POST', form });
    if (submitted.status < 300 || submitted.status >= 400) {
      throw new Error(`submitting ${prompt} answered ${submitted.status}: ${(await submitted.text()).slice(0, 500)}`);
    }
    url = new URL(submitted.headers.get('location')!, url).href;
  }
  throw new Error('provider never redirected back to Sightline');
}

let idp: Idp;
let t: TestApp;
beforeAll(async () => {
  idp = await startIdp();
  t = await createTestApp({ OIDC_ISSUER: idp.issuer, OIDC_CLIENT_ID: CLIENT_ID, OIDC_CLIENT_SECRET: CLIENT_SECRET, OIDC_NAME: 'Test SSO' });
});
afterAll(async () => {
  await t?.close();
  await idp?.close();
});

function stateCookieOf(res: LightMyRequestResponse): string {
  const c = res.cookies.find((k) => k.name === STATE_COOKIE);
  if (!c) throw new Error(`no ${STATE_COOKIE} cookie in response ${res.statusCode}`);
  return c.value;
}

/** GET /v1/auth/oauth/oidc: the provider URL to visit and the signed state cookie to keep. */
async function start() {
  const res = await t.app.inject({ method: 'GET', url: '/v1/auth/oauth/oidc' });
  expect(res.statusCode).toBe(302);
  return { location: res.headers.location as string, state: stateCookieOf(res), res };
}

const callback = (path: string, state?: string) =>
  t.app.inject({ method: 'GET', url: path, headers: state === undefined ? {} : { cookie: `${STATE_COOKIE}=${encodeURIComponent(state)}` } });

/** One complete sign-in as the provider account `accountId`, in the given browser. */
async function signInWithProvider(accountId: string, browser = new Browser()) {
  const { location, state } = await start();
  const { callbackPath, prompts } = await authorizeAtProvider(browser, location, accountId);
  const res = await callback(callbackPath, state);
  return { res, prompts };
}

function addAccount(name: string, email = uniqueEmail('sso')): IdpAccount {
  const account = { sub: `sub-${email}`, email, email_verified: true, name };
  idp.accounts.set(account.sub, account);
  return account;
}

const usersWithEmail = (email: string) => t.database.db.select().from(users).where(eq(users.email, email));

describe('configuration', () => {
  it('GET /v1/config lists the OIDC provider under its configured name', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/config' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.providers).toEqual([{ id: 'oidc', name: 'Test SSO', kind: 'oidc' }]);
  });

  it('a provider that is not configured answers 404 auth/operation-not-allowed', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/auth/oauth/google' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('auth/operation-not-allowed');
    expect(res.cookies.find((c) => c.name === STATE_COOKIE)).toBeUndefined();
  });
});

describe('sign-in with a real OpenID provider', () => {
  it('redirects to the provider with PKCE, nonce and state, and sets the signed state cookie', async () => {
    const { location, res } = await start();
    const url = new URL(location);
    expect(`${url.origin}${url.pathname}`).toBe(`${idp.issuer}/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      response_type: 'code',
      redirect_uri: `${PUBLIC_URL}${CALLBACK_PATH}`,
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(url.searchParams.get('state')).toBeTruthy();
    expect(url.searchParams.get('nonce')).toBeTruthy();
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    const cookie = res.cookies.find((c) => c.name === STATE_COOKIE)!;
    expect(cookie).toMatchObject({ httpOnly: true, path: '/v1/auth/oauth', sameSite: 'Lax' });
    // The verifier rides in the cookie, so it must be signed, not just stored.
    expect(() => JSON.parse(cookie.value)).toThrow();
  });

  it('first sign-in creates a verified account linked to the provider; the next one signs in', async () => {
    const account = addAccount('Ada Lovelace');
    const browser = new Browser();
    const usersBefore = (await t.database.db.select().from(users)).length;

    const first = await signInWithProvider(account.sub, browser);
    expect(first.prompts).toEqual(['login', 'consent']);
    expect(first.res.statusCode).toBe(302);
    expect(first.res.headers.location).toBe('/home?auth=signup-successful');
    expect(idp.challengeMethods.at(-1)).toBe('S256');
    const me = await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { cookie: sessionCookie(first.res) } });
    expect(me.statusCode).toBe(200);
    const user = me.json().data;
    expect(user).toMatchObject({ email: account.email, emailVerified: true, firstName: 'Ada', lastName: 'Lovelace' });
    expect(user.providers).toContain('oidc');
    expect(user.providers).not.toContain('password');
    expect((await t.database.db.select().from(users)).length).toBe(usersBefore + 1);
    const links = await t.database.db.select().from(authIdentities).where(eq(authIdentities.userId, user.id));
    expect(links).toMatchObject([{ provider: 'oidc', subject: account.sub }]);

    // Same browser: the provider remembers the login and the grant, so it redirects straight back.
    const second = await signInWithProvider(account.sub, browser);
    expect(second.prompts).toEqual([]);
    expect(second.res.headers.location).toBe('/home?auth=signin-successful');
    const me2 = await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { cookie: sessionCookie(second.res) } });
    expect(me2.json().data.id).toBe(user.id);
    expect(await usersWithEmail(account.email)).toHaveLength(1);
  });

  it('a fresh browser (new provider login) still finds the same Sightline account', async () => {
    const account = addAccount('Grace Hopper');
    const first = await signInWithProvider(account.sub);
    expect(first.res.headers.location).toBe('/home?auth=signup-successful');
    const again = await signInWithProvider(account.sub);
    expect(again.prompts).toEqual(['login', 'consent']);
    expect(again.res.headers.location).toBe('/home?auth=signin-successful');
    expect(await usersWithEmail(account.email)).toHaveLength(1);
  });

  it('an email that already has a password account is refused, not merged', async () => {
    const email = uniqueEmail('taken');
    const signup = await t.app.inject({
      method: 'POST',
      url: '/v1/auth/signup',
      payload: { email, password: 'correct-horse-9', username: `p${Date.now()}`, firstName: 'Pat' },
    });
    expect(signup.statusCode).toBe(201);
    const account = addAccount('Mallory Impostor', email);

    const { res } = await signInWithProvider(account.sub);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/signin?error=auth%2Faccount-exists-with-different-credential%3Apassword');
    expect(res.cookies.find((c) => c.name === 'sl_session')).toBeUndefined();
    const rows = await usersWithEmail(email);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.passwordHash).not.toBeNull();
    expect(await t.database.db.select().from(authIdentities).where(eq(authIdentities.subject, account.sub))).toHaveLength(0);
  });
});

describe('state cookie', () => {
  /** Runs the provider side for a new account and returns a genuine callback plus its state cookie. */
  async function pendingCallback() {
    const account = addAccount('State Tester');
    const { location, state } = await start();
    const { callbackPath } = await authorizeAtProvider(new Browser(), location, account.sub);
    // A real, unused code: only the cookie can be what makes these callbacks fail.
    expect(new URL(callbackPath, PUBLIC_URL).searchParams.get('code')).toBeTruthy();
    return { account, state, callbackPath };
  }

  it('a missing state cookie → /signin?error=auth/invalid-state, nobody signed in', async () => {
    const { account, callbackPath } = await pendingCallback();
    const res = await callback(callbackPath);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/signin?error=auth%2Finvalid-state');
    expect(res.cookies.find((c) => c.name === 'sl_session')).toBeUndefined();
    expect(await usersWithEmail(account.email)).toHaveLength(0);
  });

  it('a tampered state cookie (payload changed, signature kept) → auth/invalid-state', async () => {
    const { account, state, callbackPath } = await pendingCallback();
    const dot = state.lastIndexOf('.');
    const payload = JSON.parse(state.slice(0, dot)) as { state: string };
    const forged = `${JSON.stringify({ ...payload, state: `${payload.state}x` })}${state.slice(dot)}`;
    const res = await callback(callbackPath, forged);
    expect(res.headers.location).toBe('/signin?error=auth%2Finvalid-state');
    expect(await usersWithEmail(account.email)).toHaveLength(0);
  });

  it('an unsigned state cookie → auth/invalid-state', async () => {
    const { state, callbackPath } = await pendingCallback();
    const res = await callback(callbackPath, state.slice(0, state.lastIndexOf('.')));
    expect(res.headers.location).toBe('/signin?error=auth%2Finvalid-state');
  });

  it('a genuine state cookie from another attempt does not complete this one', async () => {
    const { account, callbackPath } = await pendingCallback();
    const other = await start();
    const res = await callback(callbackPath, other.state);
    expect(res.statusCode).toBe(302);
    // Signed and well-formed, so it passes the cookie check; the state comparison rejects it.
    expect(res.headers.location).toBe('/signin?error=auth%2Foauth-failed');
    expect(res.cookies.find((c) => c.name === 'sl_session')).toBeUndefined();
    expect(await usersWithEmail(account.email)).toHaveLength(0);
  });

  it('the state cookie is cleared by the callback, so a replayed callback fails', async () => {
    const account = addAccount('Replay Tester');
    const { location, state } = await start();
    const { callbackPath } = await authorizeAtProvider(new Browser(), location, account.sub);
    const ok = await callback(callbackPath, state);
    expect(ok.headers.location).toBe('/home?auth=signup-successful');
    const cleared = ok.cookies.find((c) => c.name === STATE_COOKIE);
    expect(cleared?.value).toBe('');
    // A replay with the old cookie reaches the provider again, which refuses the used code.
    const replay = await callback(callbackPath, state);
    expect(replay.headers.location).toBe('/signin?error=auth%2Foauth-failed');
    expect(replay.cookies.find((c) => c.name === 'sl_session')).toBeUndefined();
  });
});
