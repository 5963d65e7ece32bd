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
