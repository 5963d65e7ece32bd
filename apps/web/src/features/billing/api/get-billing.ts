import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BillingSummary } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Plan, subscription, wallet, limits and what the caller may do (GET /v1/billing). */
export const getBilling = (signal?: AbortSignal) => api.get<BillingSummary>('/v1/billing', signal);

export const billingQueryOptions = () => queryOptions({ queryKey: billingKeys.summary(), queryFn: ({ signal }) => getBilling(signal), staleTime: 5_000 });

/** `pollUntil`: refetch every 1.5 s while it returns true (after a checkout, until the webhook lands). */
export const useBilling = (pollUntil?: (s: BillingSummary | undefined) => boolean) =>
  useQuery({ ...billingQueryOptions(), refetchInterval: (q) => (pollUntil?.(q.state.data) ? 1500 : false) });
