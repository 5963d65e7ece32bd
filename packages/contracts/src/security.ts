import { z } from 'zod';

/**
 * Repeated authentication failures as admins see them (issue 16): one row per kind and subject
 * (`account:<email>` or `ip:<address>`), counted in windows; `blocked` while sign-in (or mail, or
 * API-key use) is refused with 429.
 */
export const authFailureSchema = z.object({
  kind: z.enum(['signin', 'reset', 'verify', 'apikey']),
  subject: z.string(),
  /** events in the current window */
  windowCount: z.number().int(),
  /** events ever recorded for this subject */
  total: z.number().int(),
  /** blocks so far (each one doubles the next block, up to an hour) */
  strikes: z.number().int(),
  blocked: z.boolean(),
  blockedUntil: z.string().nullable(),
  lastAt: z.string(),
  lastIp: z.string().nullable(),
});
export type AuthFailure = z.infer<typeof authFailureSchema>;
export const authFailuresResponse = z.object({ data: z.array(authFailureSchema) });
