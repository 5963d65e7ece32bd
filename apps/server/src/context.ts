import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import type { Invalidations } from './platform/cache/invalidation.js';
import type { Database, Db } from './platform/db/client.js';
import type { Mailer } from './platform/mail/mailer.js';
import type { JobQueue } from './platform/jobs/job-queue.js';
import type { EventBus } from './platform/realtime/event-bus.js';
import type { BlobStore } from './platform/storage/blob-store.js';
import type { DomainEvents } from './platform/events/domain-events.js';
import type { Registry } from './platform/registry.js';

export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** Everything a module needs, built once in buildApp and passed down (no globals). */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  blobs: BlobStore;
  mailer: Mailer;
  bus: EventBus;
  /** per-instance caches evicted through NOTIFY (sessions, API keys, users, models for predict) */
  invalidations: Invalidations;
  jobs: JobQueue;
  /** business events after commit (dataset processed, training…): webhooks listen (ADR 0016) */
  events: DomainEvents;
  clock: Clock;
  log: FastifyBaseLogger;
  /** per-app extension points modules fill from register(): agent job kinds, run and upload listeners (ADR 0032) */
  registry: Registry;
  /** Public base URL for links in mails and signed URLs (PUBLIC_URL, else derived per request). */
  baseUrl(requestOrigin?: string): string;
  secret: string;
}

/**
 * A module as the app sees it (ADR 0032): `modules/<x>/<x>.module.ts` exports one `register`, which
 * adds the module's routes, jobs, topic authorisers and listeners to this app. app.ts lists them.
 */
export interface AppModule {
  register(app: FastifyInstance, ctx: AppContext): Promise<void> | void;
}
