import { z } from 'zod';

/**
 * Home's Recent card and the global search (ADR 0018): items of the caller across collections,
 * one shape for all of them so that one list can show them.
 */
export const RECENT_KINDS = ['dataset', 'project', 'model', 'team'] as const;
export type RecentKind = (typeof RECENT_KINDS)[number];

export const recentItemSchema = z.object({
  kind: z.enum(RECENT_KINDS),
  id: z.string(),
  name: z.string(),
  /** ISO time of the last change (recent) or of the item (search). */
  updated: z.string(),
  /** The project of a model, for a link label; null for other kinds. */
  parentName: z.string().nullable(),
});
export type RecentItem = z.infer<typeof recentItemSchema>;

/** `GET /v1/recent?limit=`: the caller's datasets, projects and models, most recently changed first. */
export const recentQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(50).default(8) });
/** `GET /v1/search?q=&limit=`: the caller's datasets, projects, models and teams whose name contains q. */
export const searchQuerySchema = z.object({ q: z.string().trim().min(1).max(100), limit: z.coerce.number().int().min(1).max(50).default(10) });
export const recentListSchema = z.object({ results: z.array(recentItemSchema) });
export type RecentList = z.infer<typeof recentListSchema>;

/** Where an item lives in the web app. */
export const recentItemPath = (item: Pick<RecentItem, 'kind' | 'id'>) => `/${item.kind === 'team' ? 'teams' : `${item.kind}s`}/${item.id}`;
