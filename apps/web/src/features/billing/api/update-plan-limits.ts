import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminPlanRow, Plan, PlanLimits } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Admin: override a plan's limits (null puts a default back). */
export const updatePlanLimits = ({ plan, patch }: { plan: Plan; patch: Partial<Record<keyof PlanLimits, number | boolean | null>> }) =>
  api.patch<AdminPlanRow>(`/v1/admin/billing/plans/${plan}`, patch);

export const useUpdatePlanLimits = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: updatePlanLimits, onSuccess: () => qc.invalidateQueries({ queryKey: billingKeys.all }) });
};
