import { describe, expect, it, vi } from 'vitest';
import { REMOTE_CONFIG_DEFAULTS, type RemoteConfig } from '@sightline/contracts';
import { createRemoteConfigFetcher, FALLBACK_CONFIG } from './remote-config';

const served = (flags: Partial<RemoteConfig['flags']>): RemoteConfig => ({ ...FALLBACK_CONFIG, flags: { ...FALLBACK_CONFIG.flags, ...flags }, version: 'v9' });

function setup(answers: Array<RemoteConfig | Error>) {
  let clock = 1_000_000;
  const fetch = vi.fn(async () => {
    const next = answers.shift();
    if (!next || next instanceof Error) throw next ?? new Error('no answer');
    return next;
  });
  const warn = vi.fn();
  const fetcher = createRemoteConfigFetcher({ fetch, now: () => clock, log: { warn } });
  return { fetcher, fetch, warn, advance: (ms: number) => (clock += ms) };
}

describe('remote config fetch policy (spec §9)', () => {
  it('fetches at once (minimum interval 0), then no more than every 3,600,000 ms', async () => {
    const { fetcher, fetch, advance } = setup([served({ cloudTraining: true }), served({ walletTopUp: true })]);
    expect(fetcher.minimumFetchIntervalMs).toBe(0);
    expect(fetcher.config.flags).toEqual(REMOTE_CONFIG_DEFAULTS);

    expect((await fetcher.fetchAndActivate()).flags.cloudTraining).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(fetcher.minimumFetchIntervalMs).toBe(3_600_000);

    advance(3_599_999);
    expect((await fetcher.fetchAndActivate()).flags.walletTopUp).toBe(false); // throttled: the active config answers
    expect(fetch).toHaveBeenCalledTimes(1);

    advance(1);
    expect((await fetcher.fetchAndActivate()).flags.walletTopUp).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('a failed fetch is logged and the defaults stay; the next call tries again', async () => {
    const { fetcher, fetch, warn } = setup([new Error('offline'), served({ teamsCollaboration: false })]);
    const first = await fetcher.fetchAndActivate();
    expect(first).toEqual(FALLBACK_CONFIG);
    expect(first.flags).toEqual({ ...REMOTE_CONFIG_DEFAULTS });
    expect(warn).toHaveBeenCalledWith('remote config fetch failed, using defaults', expect.any(Error));
    expect(fetcher.minimumFetchIntervalMs).toBe(0);

    expect((await fetcher.fetchAndActivate()).flags.teamsCollaboration).toBe(false);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('a failure after a good fetch keeps the last good config', async () => {
    const { fetcher, advance, warn } = setup([served({ cloudTraining: true }), new Error('500')]);
    await fetcher.fetchAndActivate();
    advance(3_600_000);
    expect((await fetcher.fetchAndActivate()).flags.cloudTraining).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
