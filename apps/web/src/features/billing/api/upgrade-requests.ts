import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AdminUpgradeRequestList, UpgradeRequest, UpgradeRequestStatus } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { meQueryKey } from '../../../lib/auth';
import { billingKeys } from './billing-keys';

/** The caller's open upgrade request, if any. */
export const getMyUpgradeRequest = (signal?: AbortSignal) => api.get<{ request: UpgradeRequest | null }>('/v1/billing/upgrade-requests/mine', signal);
export const myUpgradeRequestQueryOptions = () => queryOptions({ queryKey: billingKeys.myRequest(), queryFn: ({ signal }) => getMyUpgradeRequest(signal) });
export const useMyUpgradeRequest = () => useQuery(myUpgradeRequestQueryOptions());

/** Ask the admins for a plan (asking again updates the open request). */
export function useRequestUpgrade() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { plan: 'pro' | 'enterprise'; message?: string }) => api.post<UpgradeRequest>('/v1/billing/upgrade-requests', body),
    onSuccess: (request) => qc.setQueryData(billingKeys.myRequest(), { request }),
  });
}

/** Admin: requests of a status and the number still open (refreshed while shown). */
export const getAdminUpgradeRequests = (status: UpgradeRequestStatus, signal?: AbortSignal) =>
  api.get<AdminUpgradeRequestList>(`/v1/admin/upgrade-requests?status=${status}`, signal);
export const useAdminUpgradeRequests = (status: UpgradeRequestStatus = 'open', enabled = true) =>
  useQuery({ queryKey: billingKeys.adminRequests(status), queryFn: ({ signal }) => getAdminUpgradeRequests(status, signal), refetchInterval: 30_000, enabled });

/** Admin: grant (the plan is set at once) or dismiss a request. */
export function useDecideUpgradeRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'grant' | 'dismiss' }) =>
      api.post<UpgradeRequest>(`/v1/admin/upgrade-requests/${encodeURIComponent(id)}/${action}`),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['billing', 'admin'] });
      void qc.invalidateQueries({ queryKey: ['admin', 'users'] });
      void qc.invalidateQueries({ queryKey: meQueryKey });
    },
  });
}
