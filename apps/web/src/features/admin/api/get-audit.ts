import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import type { AuditPage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { adminKeys, queryString } from './admin-keys';

export interface AuditFilter {
  action: string;
  actor: string;
  target: string;
}

export const getAudit = (f: AuditFilter, before: number | undefined, signal?: AbortSignal) =>
  api.get<AuditPage>(`/v1/admin/audit${queryString({ action: f.action, actor: f.actor.trim(), target: f.target.trim(), before, limit: 50 })}`, signal);
export const auditCsvUrl = (f: AuditFilter) => `/v1/admin/audit/export${queryString({ action: f.action, actor: f.actor.trim(), target: f.target.trim() })}`;

export const useAudit = (f: AuditFilter) =>
  useInfiniteQuery({
    queryKey: adminKeys.audit(f),
    queryFn: ({ pageParam, signal }) => getAudit(f, pageParam, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    placeholderData: keepPreviousData,
  });
