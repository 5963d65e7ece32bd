import { z } from 'zod';

/**
 * The public explore page (spec: "Users read … others' public items"; ADR 0030): public datasets,
 * projects and models of other users, newest first, searchable by name, one keyset page at a time.
 */
export const EXPLORE_KINDS = ['dataset', 'project', 'model'] as const;
export type ExploreKind = (typeof EXPLORE_KINDS)[number];

export const exploreQuerySchema = z.object({
  q: z.string().trim().max(100).optional(),
  kind: z.enum(EXPLORE_KINDS).optional(),
  /** The `next` of the previous page. */
  cursor: z.string().max(120).optional(),
  limit: z.coerce.number().int().min(1).max(50).default(24),
});

export const exploreItemSchema = z.object({
  kind: z.enum(EXPLORE_KINDS),
  id: z.string(),
  name: z.string(),
  description: z.string(),
  owner: z.object({ username: z.string() }),
  /** ISO time of the last change. */
  updated: z.string(),
  /** dataset: its task; model: its task when known; project: null */
  task: z.string().nullable(),
  /** model: its project's name; others: null */
  parentName: z.string().nullable(),
});
export type ExploreItem = z.infer<typeof exploreItemSchema>;
export const explorePageSchema = z.object({ items: z.array(exploreItemSchema), next: z.string().nullable() });
export type ExplorePage = z.infer<typeof explorePageSchema>;
