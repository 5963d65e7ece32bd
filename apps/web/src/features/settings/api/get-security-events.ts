import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** GET /v1/users/me/security-events: the account's own audit entries, newest first. */
export const getSecurityEvents = (before: number | undefined, signal?: AbortSignal) =>
  api.get<AuditPage>(`/v1/users/me/security-events?limit=20${before ? `&before=${before}` : ''}`, signal);

export const useSecurityEvents = () =>
  useInfiniteQuery({
    queryKey: ['me', 'security-events'],
    queryFn: ({ pageParam, signal }) => getSecurityEvents(pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
