import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface OutboxMail {
  id: string;
  to: string;
  subject: string;
  text: string;
  created: string;
  sent: string | null;
  error: string | null;
}

export const getOutbox = (signal?: AbortSignal) => api.get<{ mailEnabled: boolean; mails: OutboxMail[] }>('/v1/admin/outbox', signal);

export const outboxQueryOptions = () => queryOptions({ queryKey: ['admin', 'outbox'], queryFn: ({ signal }) => getOutbox(signal) });

export const useOutbox = (enabled: boolean) => useQuery({ ...outboxQueryOptions(), enabled });
