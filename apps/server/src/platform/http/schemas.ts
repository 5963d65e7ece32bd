import { z } from 'zod';

export const okSchema = z.object({ data: z.object({ ok: z.literal(true) }) });
export const ok = { data: { ok: true as const } };
export const errorSchema = z.object({
  error: z.object({ code: z.string(), message: z.string(), details: z.unknown().optional(), requestId: z.string().optional() }),
});
/** Common error responses, for the OpenAPI document. */
export const errorResponses = { 400: errorSchema, 401: errorSchema, 403: errorSchema, 404: errorSchema, 409: errorSchema };
