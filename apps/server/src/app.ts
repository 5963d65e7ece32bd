import fs from 'node:fs';
import { ErrorCode, scrubText } from '@sightline/contracts';
import path from 'node:path';
import { parse as parseQuery } from 'node:querystring';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { systemClock, type AppContext, type Clock } from './context.js';
import { Invalidations } from './platform/cache/invalidation.js';
import { openDatabase, type Database } from './platform/db/client.js';
import { migrate } from './platform/db/migrate.js';
import { authContext } from './platform/http/auth-context.js';
import { errorBody, errors, registerErrorHandler } from './platform/http/errors.js';
import { securityHeaders } from './platform/http/security-headers.js';
import { registerInputGuard } from './platform/http/input-guard.js';
import { newId, sha256 } from './platform/ids.js';
import { JobQueue } from './platform/jobs/job-queue.js';
import { DomainEvents } from './platform/events/domain-events.js';
import { initMonitoring } from './platform/monitoring/index.js';
import { createMailer } from './platform/mail/mailer.js';
import { EventBus } from './platform/realtime/event-bus.js';
import { realtimeRoutes, TopicRegistry } from './platform/realtime/realtime.routes.js';
import type { BlobStore } from './platform/storage/blob-store.js';
import { blobDownloadRoutes } from './platform/http/blob-download.routes.js';
import { createBlobStore } from './platform/storage/index.js';
import { adminRoutes } from './modules/admin/admin.routes.js';
import { auditContext } from './modules/audit/audit.context.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { observeResponse } from './modules/audit/audit.service.js';
import { apiKeysRoutes } from './modules/api-keys/api-keys.routes.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { oauthRoutes } from './modules/auth/oauth.routes.js';
import { accountRoutes } from './modules/auth/account.routes.js';
import { resolveApiKey, resolveSession } from './modules/auth/auth.service.js';
import { RUN_KEY_ROUTES } from './modules/api-keys/api-keys.scope.js';
import { apiKeyFailureGuard } from './modules/auth/throttle.service.js';
import { securityRoutes } from './modules/auth/security.routes.js';
import { blobLinkAccess } from './modules/links/links.service.js';
import { originGuard } from './platform/http/origin-guard.js';
import { presenceRoutes } from './modules/presence/presence.routes.js';
import { recentRoutes } from './modules/recent/recent.routes.js';
import { mailLinksRoutes } from './modules/auth/mail-links.routes.js';
import * as presence from './modules/presence/presence.service.js';
import { flagsRoutes } from './modules/flags/flags.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { modelsRoutes } from './modules/models/models.routes.js';
import { projectsRoutes } from './modules/projects/projects.routes.js';
import { trashRoutes } from './modules/trash/trash.routes.js';
import { hubCompatRoutes } from './compat/hub/hub.routes.js';
import { trainingRoutes } from './modules/training/training.routes.js';
import { platformCompatRoutes } from './compat/platform/platform.routes.js';
import { compatFileRoutes } from './compat/files/files.routes.js';
import { datasetsRoutes } from './modules/datasets/datasets.routes.js';
import { inferenceRoutes } from './modules/inference/inference.routes.js';
import { agentsRoutes } from './modules/agents/agents.routes.js';
import { exportsRoutes } from './modules/exports/exports.routes.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { integrationsRoutes } from './modules/integrations/integrations.routes.js';
import { teamsRoutes } from './modules/teams/teams.routes.js';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes.js';
import { registerPurgeJob, schedulePurge } from './modules/trash/trash.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export interface BuildOptions {
  config: Config;
  /** An open database (tests share one); otherwise opened from config and closed with the app. */
  database?: Database;
  /**
   * The embedded database could not be restarted (ADR 0024): main.ts exits non-zero so a service
   * manager restarts the server; by default it is only logged. `retries`/`firstDelayMs` tune the restarts.
   */
  onDatabaseFatal?: (err: Error) => void;
  databaseRestarts?: { retries?: number; firstDelayMs?: number };
  blobs?: BlobStore;
  clock?: Clock;
  logger?: FastifyServerOptions['logger'];
}

/** Builds the whole server as one Fastify instance; tests inject into it in-process. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const { config } = opts;
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config),
    bodyLimit: config.bodyLimit,
    // Only the listed proxies' X-Forwarded-* count; request.ip is the client's address (ADR 0025).
    trustProxy: config.trustProxy.length ? config.trustProxy.join(',') : false,
    // One log line per request (the onResponse hook below) instead of pino's two.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{1,64}$/.test(given) ? given : newId();
    },
    // The ultralytics client fires up to 128 parallel image fetches (trace README).
    ...(config.env === 'production' ? {} : {}),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  registerInputGuard(app);
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: Math.round(reply.elapsedTime * 10) / 10 }, 'request completed');
  });
  // Error monitoring only with SENTRY_DSN (issue 15): 5xx errors go out scrubbed; nothing otherwise.
  const monitoring = await initMonitoring(config.sentry ? { dsn: config.sentry.dsn, environment: config.appEnvironment, release: config.appVersion } : null);
  if (monitoring) {
    app.addHook('onError', async (request, _reply, error) => {
      if (((error as { statusCode?: number }).statusCode ?? 500) >= 500) monitoring.captureRequestError(request, error);
    });
    app.addHook('onClose', async () => void (await monitoring.flush()));
  }

  const ownsDatabase = !opts.database;
  const database =
    opts.database ??
    (await openDatabase({
      url: config.databaseUrl,
      pgliteDir: config.databaseUrl ? null : path.join(config.dataDir, 'db'),
      embedded: config.embeddedDb,
      embeddedSyncCommit: config.embeddedSyncCommit,
      schema: config.databaseSchema,
    }));
  if (ownsDatabase) await migrate(database);
  database.supervise({ log: app.log, onFatal: opts.onDatabaseFatal ?? ((err) => app.log.fatal({ err }, 'database lost')), ...opts.databaseRestarts });
  // While the embedded PostgreSQL restarts, answer 503 at once (the liveness check stays up).
  app.addHook('onRequest', async (request) => {
    if (database.state() !== 'up' && request.url !== '/alive') throw errors.databaseUnavailable();
  });
  const blobs = opts.blobs ?? (await createBlobStore({ s3: config.s3, dataDir: config.dataDir }));
  await blobs.init();
  const bus = new EventBus(database);
  await bus.start();
  const invalidations = new Invalidations();
  await invalidations.start(database);
  const secret = config.sessionSecret ?? persistentSecret(config);

  const ctx = {
    config,
    database,
    db: database.db,
    blobs,
    bus,
    invalidations,
    clock: opts.clock ?? systemClock,
    log: app.log,
    mailer: createMailer({ db: database.db, smtpUrl: config.smtpUrl, from: config.mailFrom, log: app.log }),
    secret,
    baseUrl: (origin?: string) => config.publicUrl ?? origin ?? `http://localhost:${config.port}`,
  } as AppContext;
  ctx.jobs = new JobQueue(ctx);
  ctx.events = new DomainEvents(app.log);
  app.decorate('ctx', ctx);
  app.decorate('topics', new TopicRegistry());
  registerPurgeJob(ctx);
  let purgeTimer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    if (!config.jobsEnabled) return;
    await ctx.jobs.start();
    await schedulePurge(ctx);
    purgeTimer = setInterval(() => void schedulePurge(ctx).catch((err) => app.log.warn({ err }, 'purge scheduling failed')), 600_000);
    purgeTimer.unref();
  });
  app.addHook('onClose', async () => {
    if (purgeTimer) clearInterval(purgeTimer);
    await ctx.jobs.stop();
    await bus.stop();
    await invalidations.stop();
    if (ownsDatabase) await database.close();
  });

  await app.register(securityHeaders, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        scriptSrc: ["'self'"],
        connectSrc: ["'self'", 'ws:', 'wss:', ...(config.sentry ? [new URL(config.sentry.webDsn).origin] : [])],
        mediaSrc: ["'self'", 'blob:'],
        // The SPA must load inside same-origin frames so it can show /403 there (spec §2); /403 itself
        // may be framed by any site (security-headers.ts FRAMEABLE_PATHS).
        frameAncestors: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'sameorigin' },
    crossOriginEmbedderPolicy: false,
    hsts: config.publicUrl?.startsWith('https://') ? undefined : false,
  });
  // gzip/brotli for the web app's assets and JSON; binary blobs (zip, weights, images) are not compressible types.
  await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'], customTypes: /^(text\/(html|css|plain)|application\/(json|javascript)|image\/svg\+xml)(;|$)/ });
  await app.register(cookie, { secret });
  await app.register(multipart, { limits: { fileSize: 10 * 1024 * 1024 * 1024, files: 1, fields: 20 } });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  // Apple's sign-in callback posts a form.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_req, body, done) =>
    done(null, parseQuery(body as string)),
  );

  await app.register(swagger, {
    openapi: {
      info: { title: 'Sightline API', version: config.appVersion, description: 'Self-hosted computer-vision hub. Responses use the `{ data }` envelope.' },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' }, session: { type: 'apiKey', in: 'cookie', name: 'sl_session' } } },
    },
    transform: documentMultipart,
  });
  await app.register(swaggerUi, { routePrefix: '/v1/docs' });

  await app.register(authContext, { resolveApiKey: (key) => resolveApiKey(ctx, key), resolveSession: (token) => resolveSession(ctx, token), scopedRoutes: RUN_KEY_ROUTES });
  // Issue 16: invalid API keys count against the IP (429 when blocked); cookie writes must be same-origin or JSON.
  app.addHook('onRequest', apiKeyFailureGuard(ctx));
  app.addHook('onRequest', originGuard({ publicUrl: config.publicUrl }));
  await app.register(securityRoutes);
  await app.register(auditContext((req, status, written) => observeResponse(ctx, req, status, written)));
  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(oauthRoutes);
  await app.register(usersRoutes);
  await app.register(accountRoutes);
  await app.register(apiKeysRoutes);
  await app.register(flagsRoutes);
  await app.register(adminRoutes);
  await app.register(auditRoutes);
  await app.register(projectsRoutes);
  await app.register(modelsRoutes);
  await app.register(trashRoutes);
  await app.register(hubCompatRoutes);
  await app.register(trainingRoutes);
  await app.register(platformCompatRoutes);
  await app.register(compatFileRoutes);
  await app.register(datasetsRoutes);
  await app.register(inferenceRoutes);
  await app.register(agentsRoutes);
  await app.register(exportsRoutes);
  await app.register(billingRoutes);
  await app.register(integrationsRoutes);
  await app.register(teamsRoutes);
  await app.register(webhooksRoutes);
  await app.register(realtimeRoutes, {
    onConnect: (uid) => presence.connected(ctx, uid),
    onDisconnect: (uid) => presence.disconnected(ctx, uid),
    onGuestConnect: () => presence.guestConnected(ctx),
    onGuestPing: (id) => presence.guestSeen(ctx, id),
    onGuestDisconnect: (id) => presence.guestDisconnected(ctx, id),
  });
  await app.register(presenceRoutes);
  await app.register(recentRoutes);
  await app.register(mailLinksRoutes);
  await app.register(blobDownloadRoutes, { store: blobs, secret, now: () => ctx.clock.now(), checkAccess: (key, access) => blobLinkAccess(ctx, key, access) });

  registerWebApp(app, config.webDist);
  return app;
}

/**
 * zod's transform, plus a body for multipart operations (`consumes: ['multipart/form-data']`, read
 * as streams, so no body schema): the document lists them as multipart, which the malformed-request
 * test walks (ADR 0024).
 */
const documentMultipart: typeof jsonSchemaTransform = (input) => {
  const out = jsonSchemaTransform(input);
  const consumes = (input.schema as { consumes?: string[] } | undefined)?.consumes;
  if (!consumes?.includes('multipart/form-data') || (out.schema as { body?: unknown }).body) return out;
  return { ...out, schema: { ...out.schema, body: { type: 'object', properties: { file: { type: 'string', format: 'binary' } } } } };
};

/** Serves the built SPA; unknown non-API GETs fall back to index.html (client-side routes). */
function registerWebApp(app: FastifyInstance, webDist: string) {
  const index = path.join(webDist, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    // wildcard: files are looked up per request, so a rebuilt web app is served without a restart.
    void app.register(fastifyStatic, { root: webDist, wildcard: true, index: false, maxAge: '1h', immutable: false });
  }
  const sendIndex = (reply: FastifyReply) => reply.header('cache-control', 'no-cache').type('text/html').send(fs.createReadStream(index));
  if (hasWeb) app.get('/', { schema: { hide: true } }, (_req, reply) => sendIndex(reply));
  app.setNotFoundHandler((req, reply) => {
    const isApi = /^\/(v1|api|api_v1)(\/|$)/.test(req.url) || req.url === '/alive';
    if (req.method === 'GET' && !isApi && hasWeb) {
      if (req.url.startsWith('/assets/')) return reply.status(404).send(errorBody(ErrorCode.NotFound, 'Not found', req.id));
      return sendIndex(reply);
    }
    return reply.status(404).send(errorBody(ErrorCode.NotFound, `Route ${req.method} ${redactUrl(req.url.split('?')[0]!)} not found`, req.id));
  });
}

/** pino options: credentials in headers and query strings never reach the log. */
export function loggerOptions(config: Config) {
  return {
    level: config.logLevel,
    redact: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie'],
    serializers: {
      // Mail links and signed URLs carry secrets in the query string: log the path, not them.
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: redactUrl(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

const SECRET_PARAMS = /([?&](?:token|sig|api_key|key|exp)=)[^&]*/gi;
/** A URL as logged: secret query parameters, and keys or tokens anywhere in it (a client may put an API key in the path), replaced. */
export function redactUrl(url: string): string {
  return scrubText(url).replace(SECRET_PARAMS, '$1[redacted]');
}

/** Without SESSION_SECRET a random one is kept in the data folder so sessions survive restarts. */
function persistentSecret(config: Config): string {
  const file = path.join(config.dataDir, 'secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.dataDir, { recursive: true });
    const secret = sha256(`${newId()}${newId()}${Date.now()}`) + newId();
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
