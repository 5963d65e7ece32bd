import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PlanOffer } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Every plan with the limits this server gives it (the comparison). */
export const getPlans = (signal?: AbortSignal) => api.get<PlanOffer[]>('/v1/billing/plans', signal);
export const plansQueryOptions = () => queryOptions({ queryKey: billingKeys.plans(), queryFn: ({ signal }) => getPlans(signal), staleTime: 60_000 });
export const usePlans = () => useQuery(plansQueryOptions());
