import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config.js';
import { systemClock, type AppContext, type Clock } from './context.js';
import { Invalidations } from './platform/cache/invalidation.js';
import { openDatabase, type Database } from './platform/db/client.js';
import { migrate } from './platform/db/migrate.js';
import { DomainEvents } from './platform/events/domain-events.js';
import { errors } from './platform/http/errors.js';
import { newId, sha256 } from './platform/ids.js';
import { JobQueue } from './platform/jobs/job-queue.js';
import { createMailer } from './platform/mail/mailer.js';
import { EventBus } from './platform/realtime/event-bus.js';
import { Registry } from './platform/registry.js';
import type { BlobStore } from './platform/storage/blob-store.js';
import { createBlobStore } from './platform/storage/index.js';

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

/**
 * The app's infrastructure as one AppContext (database, blobs, bus, caches, mail, jobs, events, the
 * per-app registry), with its start (jobs, when this instance runs them) and its close, last of all.
 */
export async function openContext(app: FastifyInstance, opts: BuildOptions): Promise<AppContext> {
  const { config } = opts;
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
    registry: new Registry(),
  } as AppContext;
  ctx.jobs = new JobQueue(ctx);
  ctx.events = new DomainEvents(app.log, ctx.db);
  // Modules add their handlers while the app is built; the queue starts once it is ready.
  app.addHook('onReady', async () => {
    if (config.jobsEnabled) await ctx.jobs.start();
  });
  // Added first, so it runs last: every module's own onClose still has the database.
  app.addHook('onClose', async () => {
    await ctx.jobs.stop();
    await bus.stop();
    await invalidations.stop();
    if (ownsDatabase) await database.close();
  });
  return ctx;
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
