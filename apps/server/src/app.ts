import type { FastifyInstance } from 'fastify';
import { openContext, type BuildOptions } from './bootstrap.js';
import type { AppContext, AppModule } from './context.js';
import { registerHttpPlugins } from './platform/http/plugins.js';
import { createServer } from './platform/http/server.js';
import { registerWebApp } from './platform/http/web-app.js';
import { TopicRegistry } from './platform/realtime/realtime.routes.js';
import * as analytics from './modules/analytics/analytics.module.js';
import * as auth from './modules/auth/auth.module.js';
import * as audit from './modules/audit/audit.module.js';
import * as health from './modules/health/health.module.js';
import * as users from './modules/users/users.module.js';
import * as apiKeys from './modules/api-keys/api-keys.module.js';
import * as flags from './modules/flags/flags.module.js';
import * as admin from './modules/admin/admin.module.js';
import * as projects from './modules/projects/projects.module.js';
import * as models from './modules/models/models.module.js';
import * as trash from './modules/trash/trash.module.js';
import * as hubCompat from './compat/hub/hub.module.js';
import * as training from './modules/training/training.module.js';
import * as platformCompat from './compat/platform/platform.module.js';
import * as compatFiles from './compat/files/files.module.js';
import * as datasets from './modules/datasets/datasets.module.js';
import * as datasetVersions from './modules/dataset-versions/dataset-versions.module.js';
import * as activeJobs from './modules/active-jobs/active-jobs.module.js';
import * as storage from './modules/storage/storage.module.js';
import * as inference from './modules/inference/inference.module.js';
import * as agents from './modules/agents/agents.module.js';
import * as exportsModule from './modules/exports/exports.module.js';
import * as billing from './modules/billing/billing.module.js';
import * as integrations from './modules/integrations/integrations.module.js';
import * as teams from './modules/teams/teams.module.js';
import * as webhooks from './modules/webhooks/webhooks.module.js';
import * as presence from './modules/presence/presence.module.js';
import * as recent from './modules/recent/recent.module.js';
import * as explore from './modules/explore/explore.module.js';
import * as support from './modules/support/support.module.js';
import * as notifications from './modules/notifications/notifications.module.js';
import * as evaluation from './modules/evaluation/evaluation.module.js';
import * as links from './modules/links/links.module.js';

export type { BuildOptions } from './bootstrap.js';
export { loggerOptions, redactUrl } from './platform/http/logging.js';

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

/**
 * The modules, each registering itself (ADR 0032): routes, jobs, topic authorisers, listeners. Order
 * matters twice: hooks (auth first, as every route reads `request.principal`; audit second, as it
 * observes every response) and domain event listeners, delivered in registration order (ADR 0031:
 * analytics and audit first, webhooks last). A new module is one line here.
 */
const MODULES: AppModule[] = [
  analytics,
  auth,
  audit,
  health,
  users,
  apiKeys,
  flags,
  admin,
  projects,
  models,
  trash,
  hubCompat,
  training,
  platformCompat,
  compatFiles,
  datasets,
  datasetVersions,
  activeJobs,
  storage,
  inference,
  evaluation,
  agents,
  exportsModule,
  billing,
  integrations,
  teams,
  notifications,
  presence,
  webhooks,
  recent,
  explore,
  support,
  links,
];

/** Builds the whole server as one Fastify instance; tests inject into it in-process. */
export async function buildApp(opts: BuildOptions): Promise<FastifyInstance> {
  const app = await createServer(opts.config, opts.logger);
  const ctx = await openContext(app, opts);
  app.decorate('ctx', ctx);
  app.decorate('topics', new TopicRegistry());
  await registerHttpPlugins(app, opts.config, ctx.secret);
  for (const module of MODULES) await module.register(app, ctx);
  registerWebApp(app, opts.config.webDist);
  return app;
}
