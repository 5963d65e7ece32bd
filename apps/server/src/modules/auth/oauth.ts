import * as oidc from 'openid-client';
import { ErrorCode, robotImageFor } from '@sightline/contracts';
import type { Config } from '../../config.js';
import type { AppContext } from '../../context.js';
import { AppError } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { userQueries, type UserRow } from '../users/index.js';
import { authRepository } from './auth.repository.js';

export type ProviderKind = 'google' | 'github' | 'apple' | 'oidc';
export interface ProviderInfo {
  id: string;
  name: string;
  kind: ProviderKind;
}

/** Social sign-in providers enabled by env (spec §4: Email, Google, GitHub, Apple; plus generic OIDC). */
export function enabledProviders(config: Config): ProviderInfo[] {
  const out: ProviderInfo[] = [];
  if (config.oauth.google) out.push({ id: 'google', name: 'Google', kind: 'google' });
  if (config.oauth.github) out.push({ id: 'github', name: 'GitHub', kind: 'github' });
  if (config.oauth.apple) out.push({ id: 'apple', name: 'Apple', kind: 'apple' });
  if (config.oauth.oidc) out.push({ id: 'oidc', name: config.oauth.oidc.name, kind: 'oidc' });
  return out;
}

interface ProviderClient {
  info: ProviderInfo;
  config: oidc.Configuration;
  scope: string;
  isOidc: boolean;
  extraAuthParams?: Record<string, string>;
}

const discovered = new Map<string, Promise<oidc.Configuration>>();

async function discover(issuer: string, clientId: string, clientSecret: string) {
  const key = `${issuer}|${clientId}`;
  let p = discovered.get(key);
  if (!p) {
    const url = new URL(issuer);
    // Plain http only for local providers (tests, intranet IdPs during setup).
    const insecure = url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined;
    p = oidc.discovery(url, clientId, clientSecret, undefined, insecure);
    p.catch(() => discovered.delete(key));
    discovered.set(key, p);
  }
  return p;
}

export async function providerClient(config: Config, id: string): Promise<ProviderClient> {
  const o = config.oauth;
  switch (id) {
    case 'google':
      if (!o.google) break;
      return {
        info: { id, name: 'Google', kind: 'google' },
        config: await discover('https://accounts.google.com', o.google.clientId, o.google.clientSecret),
        scope: 'openid email profile',
        isOidc: true,
      };
    case 'apple':
      if (!o.apple) break;
      return {
        info: { id, name: 'Apple', kind: 'apple' },
        config: await discover('https://appleid.apple.com', o.apple.clientId, o.apple.clientSecret),
        scope: 'openid email name',
        isOidc: true,
        extraAuthParams: { response_mode: 'form_post' },
      };
    case 'github':
      if (!o.github) break;
      // GitHub speaks OAuth 2 without OpenID discovery.
      return {
        info: { id, name: 'GitHub', kind: 'github' },
        config: new oidc.Configuration(
          {
            issuer: 'https://github.com',
            authorization_endpoint: 'https://github.com/login/oauth/authorize',
            token_endpoint: 'https://github.com/login/oauth/access_token',
          },
          o.github.clientId,
          o.github.clientSecret,
        ),
        scope: 'read:user user:email',
        isOidc: false,
      };
    case 'oidc':
      if (!o.oidc) break;
      return {
        info: { id, name: o.oidc.name, kind: 'oidc' },
        config: await discover(o.oidc.issuer, o.oidc.clientId, o.oidc.clientSecret),
        scope: 'openid email profile',
        isOidc: true,
      };
  }
  throw new AppError(404, ErrorCode.ProviderDisabled, `Sign-in with ${id} is not enabled on this server`);
}

export interface OAuthState {
  provider: string;
  state: string;
  verifier: string;
  nonce: string;
}

export async function startAuthorization(client: ProviderClient, redirectUri: string): Promise<{ url: string; state: OAuthState }> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(client.config, {
    redirect_uri: redirectUri,
    scope: client.scope,
    state,
    ...(client.isOidc ? { nonce, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256' } : {}),
    ...client.extraAuthParams,
  });
  return { url: url.href, state: { provider: client.info.id, state, verifier, nonce } };
}

export interface ExternalProfile {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

export async function finishAuthorization(client: ProviderClient, currentUrl: URL, saved: OAuthState, body?: Record<string, string>): Promise<ExternalProfile> {
  const callbackUrl = new URL(currentUrl);
  // Apple posts the code as a form (response_mode=form_post): fold it into the URL for the library.
  if (body) for (const [k, v] of Object.entries(body)) if (typeof v === 'string') callbackUrl.searchParams.set(k, v);
  const tokens = await oidc.authorizationCodeGrant(client.config, callbackUrl, {
    expectedState: saved.state,
    ...(client.isOidc ? { pkceCodeVerifier: saved.verifier, expectedNonce: saved.nonce, idTokenExpected: true } : {}),
  });
  if (client.isOidc) {
    const claims = tokens.claims()!;
    let email = typeof claims.email === 'string' ? claims.email : null;
    let verified = claims.email_verified === true || claims.email_verified === 'true';
    let name = typeof claims.name === 'string' ? claims.name : typeof claims.given_name === 'string' ? claims.given_name : null;
    if (!email && client.config.serverMetadata().userinfo_endpoint) {
      const info = await oidc.fetchUserInfo(client.config, tokens.access_token, claims.sub);
      email = info.email ?? null;
      verified = info.email_verified === true;
      name = info.name ?? info.given_name ?? name;
    }
    return { subject: claims.sub, email: email?.toLowerCase() ?? null, emailVerified: verified, name };
  }
  const headers = { authorization: `Bearer ${tokens.access_token}`, accept: 'application/vnd.github+json', 'user-agent': 'sightline' };
  const user = (await (await fetch('https://api.github.com/user', { headers })).json()) as { id: number; login: string; name?: string };
  const emails = (await (await fetch('https://api.github.com/user/emails', { headers })).json()) as Array<{
    email: string;
    primary: boolean;
    verified: boolean;
  }>;
  const primary = emails.find((e) => e.primary && e.verified) ?? emails.find((e) => e.verified) ?? null;
  return { subject: String(user.id), email: primary?.email.toLowerCase() ?? null, emailVerified: Boolean(primary), name: user.name ?? user.login };
}

export type SocialResult = { kind: 'ok'; user: UserRow; result: 'signup-successful' | 'signin-successful' } | { kind: 'error'; code: string };

/**
 * First-time social sign-in creates the account (signup-successful); a known identity signs in
 * (signin-successful); an email already used by another sign-in method answers
 * `auth/account-exists-with-different-credential:<method>` (spec §4, §8).
 */
export async function socialSignIn(ctx: AppContext, provider: string, profile: ExternalProfile): Promise<SocialResult> {
  const linked = await userQueries.identity(ctx.db, provider, profile.subject);
  if (linked) {
    const user = await userQueries.byId(ctx.db, linked.userId);
    if (!user) return { kind: 'error', code: ErrorCode.Unknown };
    if (user.deletedAt) return { kind: 'error', code: ErrorCode.AccountDeleted };
    await ctx.events.emit('user.signedIn', user.id, { userId: user.id, provider });
    return { kind: 'ok', user, result: 'signin-successful' };
  }
  if (!profile.email || !profile.emailVerified) return { kind: 'error', code: ErrorCode.UnverifiedProviderEmail };
  const existing = await userQueries.byEmail(ctx.db, profile.email);
  if (existing) {
    const ids = await userQueries.identities(ctx.db, existing.id);
    const method = existing.passwordHash ? 'password' : (ids[0]?.provider ?? 'password');
    return { kind: 'error', code: `${ErrorCode.AccountExistsWithDifferentCredential}:${method}` };
  }
  const email = profile.email;
  const user = await ctx.db.transaction(async (tx) => {
    await authRepository.lockSignUps(tx);
    const first = (await userQueries.count(tx)) === 0;
    const base = (email.split('@')[0] ?? 'user').replace(/[^a-zA-Z0-9_-]/g, '').slice(0, 24) || 'user';
    let username = base.length >= 3 ? base : `${base}user`;
    for (let i = 2; await userQueries.byUsername(tx, username); i++) username = `${base}${i}`;
    const row = await userQueries.insert(tx, {
      id: newId(),
      email,
      username,
      // A provider's display name follows the name rule too (contracts names.ts): controls dropped.
      firstName: profile.name?.replace(/[^\p{L}\p{M}\p{N}\p{P}\p{S} ]/gu, '').split(' ')[0] || username,
      lastName: profile.name?.split(' ').slice(1).join(' ') || null,
      passwordHash: null,
      emailVerifiedAt: ctx.clock.now(),
      image: robotImageFor(email),
      roles: first ? ['admin'] : [],
      createdAt: ctx.clock.now(),
      updatedAt: ctx.clock.now(),
    });
    await userQueries.addIdentity(tx, { provider, subject: profile.subject, userId: row.id, email });
    await userQueries.insertSettings(tx, row.id);
    return row;
  });
  await ctx.events.emit('user.signedUp', user.id, { userId: user.id, provider });
  return { kind: 'ok', user, result: 'signup-successful' };
}
