import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { envelope, mailLinksSchema } from '@sightline/contracts';
import { requireAdmin } from '../../platform/http/auth-context.js';
import { linkOriginOf } from '../../platform/http/link-origin.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { mailLinksFor } from './mail-links.service.js';

/** Admins see where links in mails point, so the app can warn when other devices cannot open them (ADR 0018). */
export async function mailLinksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  r.get(
    '/v1/auth/mail-links',
    { config: { auth: 'admin' }, schema: { tags: ['auth', 'admin'], response: { 200: envelope(mailLinksSchema), ...errorResponses } } },
    async (req) => {
      requireAdmin(req);
      return { data: mailLinksFor(ctx, linkOriginOf(req, ctx.config.trustProxy.length > 0)) };
    },
  );
}
