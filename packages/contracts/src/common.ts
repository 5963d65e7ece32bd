import { z } from 'zod';

export const PRIVACIES = ['private', 'unlisted', 'public'] as const;
export const privacySchema = z.enum(PRIVACIES);
export type Privacy = z.infer<typeof privacySchema>;

export const TASKS = ['detect', 'classify', 'segment', 'semantic-segment', 'pose', 'obb'] as const;
export const taskSchema = z.enum(TASKS);
export type Task = z.infer<typeof taskSchema>;

/** What the caller may do with an item; the SPA hides what it may not (never re-implements rules). */
export const abilitiesSchema = z.object({ canEdit: z.boolean(), canDelete: z.boolean(), canShare: z.boolean() });
export type Abilities = z.infer<typeof abilitiesSchema>;

export const ownerSchema = z.object({ uid: z.string(), username: z.string() });

export const baseDatesSchema = z.object({
  created: z.string(),
  updated: z.string(),
  archived: z.string().nullable(),
  deleted: z.string().nullable(),
});

/** hub-sdk paginated list shape (`data.results`, `data.total`, `data.lastRecordId`). */
export const pageSchema = <T extends z.ZodType>(item: T) => z.object({ results: z.array(item), total: z.number(), lastRecordId: z.string().nullable() });

export const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(100),
  last_doc_id: z.string().max(40).optional(),
  public: z.enum(['True', 'False', 'true', 'false']).optional(),
  includeDeleted: z.enum(['true', 'false']).optional(),
  includeArchived: z.enum(['true', 'false']).optional(),
});

/** A list page in hub-sdk shape, as a type: `Page<Dataset>`. */
export type Page<T> = { results: T[]; total: number; lastRecordId: string | null };

/** `{ data: { ok: true } }`: the answer of actions that return nothing else. */
export const okBodySchema = z.object({ ok: z.literal(true) });
export type Ok = z.infer<typeof okBodySchema>;
/** A short-lived signed link (downloads, archives). */
export const signedUrlSchema = z.object({ url: z.string() });
export type SignedUrl = z.infer<typeof signedUrlSchema>;
