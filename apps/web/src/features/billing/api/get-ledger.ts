import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { LedgerPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** The wallet ledger, newest first; `before` is the last entry id of the previous page. */
export const getLedger = (opts: { before?: string; limit?: number }, signal?: AbortSignal) => {
  const q = new URLSearchParams({ limit: String(opts.limit ?? 25) });
  if (opts.before) q.set('before', opts.before);
  return api.get<LedgerPage>(`/v1/billing/ledger?${q}`, signal);
};

export const ledgerQueryOptions = (limit = 25) =>
  infiniteQueryOptions({
    queryKey: [...billingKeys.ledger(), limit],
    queryFn: ({ pageParam, signal }) => getLedger({ before: pageParam, limit }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });

export const useLedger = (limit = 25, poll = false) => useInfiniteQuery({ ...ledgerQueryOptions(limit), refetchInterval: poll ? 1500 : false });
