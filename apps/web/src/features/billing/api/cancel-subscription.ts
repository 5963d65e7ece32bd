import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { BillingSummary } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Cancel at the end of the period, or undo that. */
export const setCancelAtPeriodEnd = (cancelAtPeriodEnd: boolean) => api.post<BillingSummary>('/v1/billing/subscription', { cancelAtPeriodEnd });

export const useCancelSubscription = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: setCancelAtPeriodEnd, onSuccess: (summary) => qc.setQueryData(billingKeys.summary(), summary) });
};
