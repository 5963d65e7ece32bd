import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_TRACE_SAMPLE_RATE, remoteConfigSchema, updateFlagsBody, type RemoteConfig } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { requireAdmin } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { enabledProviders } from '../auth/oauth.js';
import { getFlags, updateFlags } from './flags.service.js';

async function remoteConfig(ctx: AppContext): Promise<RemoteConfig> {
  return {
    flags: await getFlags(ctx),
    version: ctx.config.appVersion,
    environment: ctx.config.appEnvironment,
    providers: enabledProviders(ctx.config),
    mail: { enabled: ctx.mailer.enabled, verificationRequired: ctx.mailer.enabled },
    monitoring: ctx.config.sentry
      ? { dsn: ctx.config.sentry.webDsn, tracesSampleRate: ERROR_TRACE_SAMPLE_RATE, environment: ctx.config.appEnvironment, release: ctx.config.appVersion }
      : null,
  };
}

export async function flagsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const envelope = z.object({ data: remoteConfigSchema });

  r.get('/v1/config', { schema: { tags: ['config'], response: { 200: envelope } } }, async () => ({ data: await remoteConfig(ctx) }));

  r.patch(
    '/v1/config/flags',
    { config: { auth: 'admin' }, schema: { tags: ['config', 'admin'], body: updateFlagsBody, response: { 200: envelope, ...errorResponses } } },
    async (req) => {
      const { user } = requireAdmin(req);
      await updateFlags(ctx, user.id, req.body);
      return { data: await remoteConfig(ctx) };
    },
  );
}
