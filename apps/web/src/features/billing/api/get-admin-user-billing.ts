import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminUserBilling } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Admin: one user's plan, wallet and latest ledger entries. */
export const getAdminUserBilling = (uid: string, signal?: AbortSignal) =>
  api.get<AdminUserBilling>(`/v1/admin/billing/users/${encodeURIComponent(uid)}`, signal);

export const adminUserBillingQueryOptions = (uid: string) =>
  queryOptions({ queryKey: billingKeys.adminUser(uid), queryFn: ({ signal }) => getAdminUserBilling(uid, signal) });

export const useAdminUserBilling = (uid: string | null) => useQuery({ ...adminUserBillingQueryOptions(uid ?? ''), enabled: Boolean(uid) });
