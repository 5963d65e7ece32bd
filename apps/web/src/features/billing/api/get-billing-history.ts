import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { HistoryPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** getBillingHistory (after) of spec §7: Stripe invoices and receipts, newest first. */
export const getBillingHistory = (after: string | undefined, signal?: AbortSignal) =>
  api.get<HistoryPage>(`/v1/billing/history?limit=10${after ? `&after=${encodeURIComponent(after)}` : ''}`, signal);

export const billingHistoryQueryOptions = () =>
  infiniteQueryOptions({
    queryKey: billingKeys.history(),
    queryFn: ({ pageParam, signal }) => getBillingHistory(pageParam, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });

export const useBillingHistory = (enabled: boolean) => useInfiniteQuery({ ...billingHistoryQueryOptions(), enabled, retry: false });
