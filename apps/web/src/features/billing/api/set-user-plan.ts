import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUserBilling, Plan } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Admin: set a user's plan by hand, with a reason. */
export const setUserPlan = ({ uid, plan, reason }: { uid: string; plan: Plan; reason: string }) =>
  api.post<AdminUserBilling>(`/v1/admin/billing/users/${encodeURIComponent(uid)}/plan`, { plan, reason });

export const useSetUserPlan = () => {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: setUserPlan,
    onSuccess: (data) => {
      qc.setQueryData(billingKeys.adminUser(data.uid), data);
      void qc.invalidateQueries({ queryKey: ['admin', 'users'] });
    },
  });
};
