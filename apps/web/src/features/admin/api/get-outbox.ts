import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Outbox } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export type { OutboxMail } from '@sightline/contracts';

export const getOutbox = (signal?: AbortSignal) => api.get<Outbox>('/v1/admin/outbox', signal);

export const outboxQueryOptions = () => queryOptions({ queryKey: ['admin', 'outbox'], queryFn: ({ signal }) => getOutbox(signal) });

export const useOutbox = (enabled: boolean) => useQuery({ ...outboxQueryOptions(), enabled });
