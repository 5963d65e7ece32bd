import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import * as training from '../../modules/training/training.service.js';
import { decodeEpochMetrics, heartbeatBody, heartbeatResponse, idParams, metricsBody, successSchema } from './hub.schemas.js';

/**
 * Legacy Ultralytics HUB protocol (ultralytics < 8.4.115 + hub-sdk), hub-protocol.md §5.5–5.8:
 * heartbeats, double-encoded metrics and multipart checkpoint/final uploads. A thin adapter: each
 * handler validates, authenticates and makes one call to training.service. `POST /v1/auth`,
 * `GET /v1/models/{id}` and `POST /v1/models` live with their modules and serve both clients.
 * Every answer is JSON: several client call sites call `.json()` unguarded (§4).
 */
export async function hubCompatRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const success = { success: true as const };

  r.post(
    '/v1/agent/heartbeat/models/:id',
    { config: { auth: 'user' }, schema: { tags: ['compat'], params: idParams, body: heartbeatBody.optional(), response: { 200: heartbeatResponse, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const agentId = await training.reportHeartbeat(ctx, user.id, req.params.id, req.body ?? {});
      return { ...success, data: { agentId } };
    },
  );

  r.post(
    '/v1/models/:id',
    { config: { auth: 'user' }, schema: { tags: ['compat'], params: idParams, body: metricsBody, response: { 200: successSchema, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await training.reportMetrics(ctx, user.id, req.params.id, 'hub', decodeEpochMetrics(req.body.metrics));
      return success;
    },
  );

  /** Multipart: fields `epoch`, `type` (epoch | final), `isBest` or `map`, then one file part `last.pt` or `best.pt` (§5.7/5.8). */
  r.post(
    '/v1/models/:id/upload',
    { config: { auth: 'user' }, schema: { tags: ['compat'], params: idParams, consumes: ['multipart/form-data'], response: { 200: successSchema, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const limits = { fileSize: training.MAX_CHECKPOINT_BYTES, files: 1, fieldSize: 4096, fields: 20 };
      await training.reportHubUpload(ctx, user, req.params.id, req.isMultipart() ? () => req.parts({ limits }) : null, Number(req.headers['content-length']) || undefined);
      return success;
    },
  );
}
