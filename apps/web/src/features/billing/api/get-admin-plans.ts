import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminPlanRow } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Admin: every plan's limits (defaults and overrides). */
export const getAdminPlans = (signal?: AbortSignal) => api.get<AdminPlanRow[]>('/v1/admin/billing/plans', signal);

export const adminPlansQueryOptions = () => queryOptions({ queryKey: billingKeys.adminPlans(), queryFn: ({ signal }) => getAdminPlans(signal) });

export const useAdminPlans = () => useQuery(adminPlansQueryOptions());
