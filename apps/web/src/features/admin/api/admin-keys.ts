import type { AdminUsersQuery, AuditQuery } from '@sightline/contracts';

/** Query keys of the admin area. */
export const adminKeys = {
  all: ['admin'] as const,
  search: (q: Partial<AdminUsersQuery>) => ['admin', 'users', 'search', q] as const,
  user: (id: string) => ['admin', 'users', 'detail', id] as const,
  analytics: (from: string, to: string, interval: string) => ['admin', 'analytics', from, to, interval] as const,
  top: (from: string, to: string) => ['admin', 'analytics-top', from, to] as const,
  jobs: (status: string) => ['admin', 'jobs', status] as const,
  feedback: ['admin', 'feedback'] as const,
  audit: (q: Partial<AuditQuery>) => ['admin', 'audit', q] as const,
};

/** `?a=1&b=2` of the defined values. */
export function queryString(params: Record<string, string | number | undefined | null>) {
  const sp = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') sp.set(k, String(v));
  const s = sp.toString();
  return s ? `?${s}` : '';
}
