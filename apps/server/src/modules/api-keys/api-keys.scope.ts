import type { AppContext } from '../../context.js';
import type { CredentialScope } from '../../platform/http/auth-context.js';
import { apiKeysRepository } from './api-keys.repository.js';
import { createApiKey } from './api-keys.service.js';

/**
 * Run keys (ADR 0023): the API key a cloud run's agent gets reaches only that run's dataset,
 * project and model (and the model it starts from), read-only for all but the model, and only
 * through the routes a training client calls. The routes gate here (auth-context `scopedRoutes`);
 * the items gate in the one access function (access.policy `allows`, which sees the caller's scope).
 */
export const RUN_KEY_ROUTES: ReadonlySet<string> = new Set([
  // Platform protocol (ultralytics >= 8.4.115): login check, ul:// resolution, the run's reports
  'GET /api/settings',
  'GET /api/account/summary',
  'GET /api/datasets/:owner/:dataset/export',
  'GET /api/webhooks/datasets/:owner/:dataset/export',
  'HEAD /api/webhooks/datasets/:owner/:dataset/export',
  'GET /api/models/:owner/:project/:model/files',
  'GET /api/webhooks/models/:owner/:project/:model/download',
  'HEAD /api/webhooks/models/:owner/:project/:model/download',
  'POST /api/webhooks/training/metrics',
  'POST /api/webhooks/models/upload',
  'PUT /v1/compat/uploads/*',
  // legacy HUB protocol (hub-sdk): the model, its heartbeats, metrics and weights
  'GET /v1/models/:id',
  'POST /v1/models/:id',
  'POST /v1/agent/heartbeat/models/:id',
  'POST /v1/models/:id/upload',
  // signed dataset files (no credentials needed, but a client may send them)
  'GET /v1/compat/datasets/:datasetId/:file',
  'HEAD /v1/compat/datasets/:datasetId/:file',
]);

/** The scope of a run on this model: works on the model; reads its dataset, its project and the model it starts from. */
export async function runScopeOf(ctx: Pick<AppContext, 'db'>, modelId: string): Promise<CredentialScope> {
  const model = await apiKeysRepository.runItems(ctx.db, modelId);
  const only = (...ids: Array<string | null | undefined>) => ids.filter((x): x is string => Boolean(x));
  return { works: [modelId], reads: only(model?.datasetId, model?.projectId, model?.parentId) };
}

/** A fresh key for one cloud run of this model, limited to the run's items (revoked at the run's end by its caller). */
export async function createRunKey(ctx: AppContext, userId: string, modelId: string) {
  return createApiKey(ctx, userId, `cloud run ${modelId}`, await runScopeOf(ctx, modelId));
}
