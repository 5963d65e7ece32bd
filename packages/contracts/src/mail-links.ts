import { z } from 'zod';

/**
 * `GET /v1/auth/mail-links` (admins): where links in mails point for this request (ADR 0018).
 * `source` is PUBLIC_URL when it is set, else the origin the browser used; `loopback` warns that
 * other devices cannot open such links.
 */
export const mailLinksSchema = z.object({
  base: z.string(),
  source: z.enum(['PUBLIC_URL', 'request', 'default']),
  loopback: z.boolean(),
});
export type MailLinks = z.infer<typeof mailLinksSchema>;
