import { api } from './api-client';

/** hub-sdk list shape of the API (`data.results`, `data.total`, `data.lastRecordId`). */
export interface Page<T> {
  results: T[];
  total: number;
  lastRecordId: string | null;
}

const PAGE_SIZE = 500;

/**
 * Every item of a keyset-paginated list (`limit` + `last_doc_id`). The client lists of spec §3
 * hold all of a user's items, so the pages are walked to the end.
 */
export async function fetchAllPages<T>(path: string, query: Record<string, string> = {}, signal?: AbortSignal): Promise<T[]> {
  const all: T[] = [];
  let after: string | null = null;
  for (;;) {
    const params = new URLSearchParams({ ...query, limit: String(PAGE_SIZE) });
    if (after) params.set('last_doc_id', after);
    const page: Page<T> = await api.get<Page<T>>(`${path}?${params}`, signal);
    all.push(...page.results);
    if (!page.lastRecordId || page.results.length < PAGE_SIZE || all.length >= page.total) return all;
    after = page.lastRecordId;
  }
}
