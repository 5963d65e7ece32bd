import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SupportContact } from '@sightline/contracts';
import { api } from './api-client';

/**
 * The admin contact address (ADR 0030): Support's Contact card, the plan pages' "ask your admin"
 * and the admin overview that sets it all read this one query.
 */
export const supportContactKey = ['support', 'contact'] as const;
export const getSupportContact = (signal?: AbortSignal) => api.get<SupportContact>('/v1/support/contact', signal);
export const supportContactQueryOptions = () =>
  queryOptions({ queryKey: supportContactKey, queryFn: ({ signal }) => getSupportContact(signal), staleTime: 60_000 });
export const useSupportContact = (enabled = true) => useQuery({ ...supportContactQueryOptions(), enabled });

export function useSetSupportContact() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => api.put<SupportContact>('/v1/admin/support/contact', { email }),
    onSuccess: (data) => qc.setQueryData(supportContactKey, data),
  });
}
