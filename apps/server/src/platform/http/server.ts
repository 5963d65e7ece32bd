import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { newId } from '../ids.js';
import { initMonitoring } from '../monitoring/index.js';
import { registerErrorHandler } from './errors.js';
import { registerInputGuard } from './input-guard.js';
import { loggerOptions } from './logging.js';

/** The Fastify instance with what every request passes through first: ids, zod, the error handler, the input guard, one log line, monitoring. */
export async function createServer(config: Config, logger?: FastifyServerOptions['logger']): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimit,
    // Only the listed proxies' X-Forwarded-* count; request.ip is the client's address (ADR 0025).
    trustProxy: config.trustProxy.length ? config.trustProxy.join(',') : false,
    // One log line per request (the onResponse hook below) instead of pino's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : newId();
    },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerInputGuard(app);
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
  });
  // Error monitoring only with SENTRY_DSN (docs/deploy.md §8): 5xx errors go out scrubbed; nothing otherwise.
  const monitoring = await initMonitoring(config.sentry ? { dsn: config.sentry.dsn, environment: config.appEnvironment, release: config.appVersion } : null);
  if (monitoring) {
    app.addHook('onError', async (request, _reply, error) => {
      if (((error as { statusCode?: number }).statusCode ?? 500) >= 500) monitoring.captureRequestError(request, error);
    });
    app.addHook('onClose', async () => void (await monitoring.flush()));
  }
  return app;
}
