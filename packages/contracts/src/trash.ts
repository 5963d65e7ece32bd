import { z } from 'zod';

export const trashItemSchema = z.object({
  id: z.string(),
  /** `datasetVersion`: a dataset version (ADR 0038), its dataset in `parent` */
  type: z.enum(['dataset', 'project', 'model', 'datasetVersion']),
  name: z.string(),
  deleted: z.string(),
  expires: z.string(),
  bytes: z.number(),
  parent: z.object({ type: z.enum(['project', 'dataset']), id: z.string(), name: z.string() }).nullable(),
});
export type TrashItem = z.infer<typeof trashItemSchema>;
/** `DELETE /v1/trash`: how many items were removed for good. */
export const emptyTrashResponseSchema = z.object({ removed: z.number() });
export type EmptyTrashResponse = z.infer<typeof emptyTrashResponseSchema>;

/** Most items one trash page holds. */
export const TRASH_PAGE_MAX = 100;
/** `GET /v1/trash`: newest deletion first; `cursor` continues after the last item of a page (keyset, ADR 0042). */
export const trashQuery = z.object({
  cursor: z
    .string()
    .max(200)
    .regex(/^[\w-]+$/, 'cursor must be the nextCursor of a previous page')
    .optional(),
  limit: z.coerce.number().int().min(1).max(TRASH_PAGE_MAX).default(50),
});
export type TrashQuery = z.input<typeof trashQuery>;
/**
 * One page of the trash; the first page (no cursor) also says what the whole trash holds: `count`
 * items (models under their project included) of `bytes`; later pages answer null there.
 */
export const trashPageSchema = z.object({
  items: z.array(trashItemSchema),
  nextCursor: z.string().nullable(),
  count: z.number().int().nullable(),
  bytes: z.number().nullable(),
});
export type TrashPage = z.infer<typeof trashPageSchema>;
