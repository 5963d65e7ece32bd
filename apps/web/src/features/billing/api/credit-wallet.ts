import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminUserBilling } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** Admin: credit a wallet by hand (USD), with a reason; a ledger entry names the admin. */
export const creditWallet = ({ uid, amount, reason }: { uid: string; amount: number; reason: string }) =>
  api.post<AdminUserBilling>(`/v1/admin/billing/users/${encodeURIComponent(uid)}/credit`, { amount, reason });

export const useCreditWallet = () => {
  const qc = useQueryClient();
  return useMutation({ mutationFn: creditWallet, onSuccess: (data) => qc.setQueryData(billingKeys.adminUser(data.uid), data) });
};
