import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { ErrorCode, USER_DOC_RETRY_MS, type User } from '@sightline/contracts';
import { api, isApiError } from './api-client';
import { session } from './storage';

export const meQueryKey = ['me'] as const;

/**
 * The signed-in user, or null when signed out. `/v1/auth/session` answers 200 with null then, so a
 * signed-out page logs no failed request (ADR 0030); a 401 (an older server) still means signed out.
 */
export async function getMe(signal?: AbortSignal): Promise<User | null> {
  try {
    return (await api.get<{ user: User | null }>('/v1/auth/session', signal)).user;
  } catch (error) {
    if (isApiError(error) && (error.status === 401 || error.code === ErrorCode.Unauthorized)) return null;
    throw error;
  }
}

/** How many times a user document that is not ready is asked for again (50 × 100 ms: 5 s, then the connectivity banner speaks). */
export const USER_DOC_RETRIES = 50;

/**
 * "Not ready" (spec §4): no answer (network), or the server not ready to answer (5xx: starting,
 * database or cache listener down). A refusal (401 = signed out, 4xx) is an answer, never retried.
 */
export function userDocNotReady(error: unknown): boolean {
  if (!isApiError(error)) return true;
  return error.isNetworkError || error.status >= 500;
}

export const meQueryOptions = () =>
  queryOptions({
    queryKey: meQueryKey,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: 60_000,
    // Spec §4/§9: if the user document is not ready, retry every 100 ms.
    retry: (count, error) => userDocNotReady(error) && count < USER_DOC_RETRIES,
    retryDelay: USER_DOC_RETRY_MS,
  });

export function useMe() {
  const query = useQuery(meQueryOptions());
  return { user: query.data ?? null, isPending: query.isPending, error: query.error, refetch: query.refetch };
}

export const isAdmin = (user: Pick<User, 'roles'> | null | undefined) => !!user?.roles.includes('admin');

/** Display name of the settings entry: username, else first name, else email (spec §2). */
export const displayName = (user: Pick<User, 'username' | 'firstName' | 'email'>) => user.username || user.firstName || user.email;

export async function signOut(queryClient: QueryClient): Promise<void> {
  try {
    await api.post('/v1/auth/signout');
  } finally {
    queryClient.setQueryData(meQueryKey, null);
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== 'me' && q.queryKey[0] !== 'config' });
  }
}

/* Redirect memory of the auth guard (spec §2): the first protected target wins while the saved path is still /home. */
const REDIRECT_KEY = 'sightline.redirect';
export const DEFAULT_REDIRECT = '/home';
const NOT_REMEMBERED = new Set(['/signin', '/signup', '/login', '/']);

export function getRedirect(): string {
  return session.get(REDIRECT_KEY) ?? DEFAULT_REDIRECT;
}
export function rememberRedirect(pathWithQuery: string): void {
  const path = pathWithQuery.split('?')[0];
  if (NOT_REMEMBERED.has(path)) return;
  if (getRedirect() !== DEFAULT_REDIRECT) return;
  session.set(REDIRECT_KEY, pathWithQuery);
}
/**
 * The team invite the saved path opens (`/teams/{id}?invite=<token>`, the mailed or copied link
 * opened signed out): sign-in and sign-up show it, and a sign-up sends it along.
 */
export function savedInvite(): { team: string; token: string } | null {
  const [path, query = ''] = getRedirect().split('?');
  const team = /^\/teams\/([^/]+)$/.exec(path ?? '')?.[1];
  const token = new URLSearchParams(query).get('invite');
  return team && token ? { team: decodeURIComponent(team), token } : null;
}
/** Overrides the saved path (a new account goes to /welcome). */
export function setRedirect(pathWithQuery: string): void {
  session.set(REDIRECT_KEY, pathWithQuery);
}
/** Returns the saved path and resets it to /home. */
export function takeRedirect(): string {
  const path = getRedirect();
  session.remove(REDIRECT_KEY);
  return path;
}
