import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import * as training from '../../modules/training/training.service.js';
import { recordHeartbeat } from './hub.heartbeat.js';
import { receiveHubUpload } from './hub.uploads.js';
import { decodeEpochMetrics, heartbeatBody, heartbeatResponse, idParams, metricsBody, successSchema } from './hub.schemas.js';

/**
 * Legacy Ultralytics HUB protocol (ultralytics < 8.4.115 + hub-sdk), hub-protocol.md §5.5–5.8:
 * heartbeats, double-encoded metrics and multipart checkpoint/final uploads. A thin adapter: each
 * handler validates, authenticates and hands the decoded report to the training lifecycle
 * (training.service, the module's public entry); the multipart fields and the heartbeat's agentId are
 * read here (hub.uploads.ts, hub.heartbeat.ts). `POST /v1/auth`,
 * `GET /v1/models/{id}` and `POST /v1/models` live with their modules and serve both clients.
 * Every answer is JSON: several client call sites call `.json()` unguarded (§4).
 */
export async function hubCompatRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const success = { success: true as const };

  r.post(
    '/v1/agent/heartbeat/models/:id',
    {
      config: { auth: 'user' },
      schema: { tags: ['compat'], params: idParams, body: heartbeatBody.optional(), response: { 200: heartbeatResponse, ...errorResponses } },
    },
    async (req) => {
      const { user } = requireUser(req);
      const agentId = await recordHeartbeat(ctx, user.id, req.params.id, req.body ?? {});
      return { ...success, data: { agentId } };
    },
  );

  r.post(
    '/v1/models/:id',
    { config: { auth: 'user' }, schema: { tags: ['compat'], params: idParams, body: metricsBody, response: { 200: successSchema, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await training.recordEpochs(ctx, user.id, req.params.id, 'hub', decodeEpochMetrics(req.body.metrics));
      return success;
    },
  );

  /** Multipart: fields `epoch`, `type` (epoch | final), `isBest` or `map`, then one file part `last.pt` or `best.pt` (§5.7/5.8). */
  r.post(
    '/v1/models/:id/upload',
    {
      config: { auth: 'user' },
      schema: { tags: ['compat'], params: idParams, consumes: ['multipart/form-data'], response: { 200: successSchema, ...errorResponses } },
    },
    async (req) => {
      const { user } = requireUser(req);
      const limits = { fileSize: training.MAX_CHECKPOINT_BYTES, files: 1, fieldSize: 4096, fields: 20 };
      await receiveHubUpload(
        ctx,
        user,
        req.params.id,
        req.isMultipart() ? () => req.parts({ limits }) : null,
        Number(req.headers['content-length']) || undefined,
      );
      return success;
    },
  );
}
