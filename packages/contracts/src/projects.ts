import { z } from 'zod';
import { safeName } from './names.js';
import { DESCRIPTION_MAX, NAME_MAX } from './constants.js';
import { abilitiesSchema, baseDatesSchema, ownerSchema, privacySchema } from './common.js';

export const projectSchema = z.object({
  id: z.string(),
  slug: z.string(),
  dates: baseDatesSchema,
  meta: z.object({ name: z.string(), description: z.string(), privacy: privacySchema }),
  image: z.object({ path: z.string().nullable(), bytes: z.number(), url: z.string().nullable() }),
  models: z.object({ count: z.number(), exports: z.record(z.string(), z.number()) }),
  owner: ownerSchema,
  team: z.object({ id: z.string().nullable() }),
  totals: z.object({ models: z.number(), bytes: z.number() }),
  abilities: abilitiesSchema,
});
export type Project = z.infer<typeof projectSchema>;

export const createProjectBody = z.object({
  meta: z
    .object({
      name: safeName(z.string().trim().max(NAME_MAX)).optional(),
      description: z.string().trim().max(DESCRIPTION_MAX).optional(),
      privacy: privacySchema.optional(),
    })
    .optional(),
  // hub-sdk scripts send flat fields
  name: safeName(z.string().trim().max(NAME_MAX)).optional(),
  description: z.string().trim().max(DESCRIPTION_MAX).optional(),
});
export const updateProjectBody = z.object({
  meta: z
    .object({ name: safeName(z.string().trim().min(1).max(NAME_MAX)), description: z.string().trim().max(DESCRIPTION_MAX) })
    .partial()
    .optional(),
  name: safeName(z.string().trim().min(1).max(NAME_MAX)).optional(),
  description: z.string().trim().max(DESCRIPTION_MAX).optional(),
});
export const shareBody = z.object({ privacy: privacySchema });
export const reorderBody = z.object({ modelIds: z.array(z.string()).min(1).max(1000) });
