import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUserDetail, Plan } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys } from './admin-keys';

export type UserAction = 'grant-admin' | 'revoke-admin' | 'disable' | 'enable' | 'delete' | 'restore' | 'sign-out';

/** POST /v1/admin/users/:id/{role|disable|enable|delete|restore|sign-out}. */
export function runUserAction(id: string, action: UserAction) {
  const base = `/v1/admin/users/${encodeURIComponent(id)}`;
  if (action === 'grant-admin' || action === 'revoke-admin')
    return api.post<AdminUserDetail>(`${base}/role`, { role: 'admin', grant: action === 'grant-admin' });
  return api.post<unknown>(`${base}/${action}`, action === 'disable' || action === 'delete' ? {} : undefined);
}

/** POST /v1/admin/billing/users/:id/plan: the plan set by hand (who and why recorded). */
export const setPlan = (id: string, plan: Plan, reason: string) =>
  api.post<unknown>(`/v1/admin/billing/users/${encodeURIComponent(id)}/plan`, { plan, reason });

export function useUserAction(id: string) {
  const qc = useQueryClient();
  const refresh = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: adminKeys.user(id) }),
      qc.invalidateQueries({ queryKey: ['admin', 'users'] }),
      qc.invalidateQueries({ queryKey: ['admin', 'audit'] }),
    ]);
  return {
    action: useMutation({ mutationFn: (a: UserAction) => runUserAction(id, a), onSuccess: refresh }),
    plan: useMutation({ mutationFn: ({ plan, reason }: { plan: Plan; reason: string }) => setPlan(id, plan, reason), onSuccess: refresh }),
  };
}
