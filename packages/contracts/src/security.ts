import { z } from 'zod';

/**
 * Repeated authentication failures as admins see them (ADR 0014): one row per kind and subject
 * (`account:<email>`, `account:<email>|ip:<address>`, `device:<id>|account:<email>`, `account:user:<id>`
 * or `ip:<address>`), counted in windows; `blocked` while sign-in (or mail, API-key use, the current
 * password, mail links, agent tokens) is refused with 429 (ADR 0024).
 */
export const authFailureSchema = z.object({
  kind: z.enum(['signin', 'reset', 'verify', 'apikey', 'password', 'mailtoken', 'agenttoken']),
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
