import { QueryClient } from '@tanstack/react-query';
import { USER_DOC_RETRY_MS } from '@sightline/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeUser } from '../test/render';
import { meQueryOptions } from './auth';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the user document (spec §4: if it is not ready, retry every 100 ms)', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks again every USER_DOC_RETRY_MS while the server is not ready, then has the user', async () => {
    const user = makeUser();
    const answers = [
      json(503, { error: { code: 'error/server-offline', message: 'Starting' } }),
      json(503, { error: { code: 'error/server-offline', message: 'Starting' } }),
      json(200, { data: { user } }),
    ];
    const at: number[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        at.push(performance.now());
        return answers.shift()!;
      }),
    );
    const got = await new QueryClient().fetchQuery(meQueryOptions());
    expect(got).toEqual(user);
    expect(at).toHaveLength(3);
    expect(USER_DOC_RETRY_MS).toBe(100);
    // 100 ms apart (never the default back-off of 1 s, 2 s…); the machine may be slow, never fast.
    for (let i = 1; i < at.length; i += 1) {
      expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(USER_DOC_RETRY_MS - 5);
      expect(at[i]! - at[i - 1]!).toBeLessThan(900);
    }
  });

  it('signed out is a 200 with no user from /v1/auth/session: null, asked once, nothing failed to log (ADR 0030)', async () => {
    const fetchMock = vi.fn(async () => json(200, { data: { user: null } }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await new QueryClient().fetchQuery(meQueryOptions())).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/v1/auth/session', expect.anything());
  });

  it('takes a 401 as the answer (signed out) without asking again', async () => {
    const fetchMock = vi.fn(async () => json(401, { error: { code: 'error/unauthorized', message: 'Sign in' } }));
    vi.stubGlobal('fetch', fetchMock);
    expect(await new QueryClient().fetchQuery(meQueryOptions())).toBeNull();
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
