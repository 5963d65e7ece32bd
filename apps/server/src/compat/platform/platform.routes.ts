import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError } from '../../platform/http/errors.js';
import { listApiKeys } from '../../modules/api-keys/api-keys.service.js';
import * as training from '../../modules/training/training.service.js';
import { baseUrlFor, signCompatUrl } from '../../platform/http/signed-links.js';
import { datasetNdjsonPath } from './platform.formats.js';
import { presentAccountSummary, presentApiKeys, presentError, presentSettings } from './platform.presenter.js';
import {
  accountSummaryResponse,
  apiKeysResponse,
  datasetExportResponse,
  modelFilesResponse,
  modelParams,
  settingsResponse,
  slugParams,
} from './platform.schemas.js';
import { platformUploadRoutes } from './platform.uploads.js';
import { platformWebhookRoutes } from './platform.webhooks.js';

const MODEL_URL_TTL_MS = 24 * 3_600_000;

/**
 * Ultralytics Platform protocol (ultralytics ≥ 8.4.115), platform-protocol.md and the recorded trace:
 * login checks, the training webhook with its five events (platform.webhooks.ts), signed checkpoint
 * uploads with the client's Content-Length + Transfer-Encoding quirk (platform.uploads.ts), `ul://`
 * resolution in both client generations and the dataset as NDJSON. An adapter that owns the
 * Platform's formats (platform.formats.ts) over the training lifecycle (training.service). Errors are `{"error": "..."}` JSON, and 401 only ever means a bad key: the client
 * disables tracking for the whole process on a 401 (§4.2).
 */
export async function platformCompatRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  // Platform clients print body.error; the SDK generation only parses application/json bodies.
  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err instanceof AppError) {
      if (err.statusCode >= 500) request.log.error({ err }, 'platform compat error');
      return reply.status(err.statusCode).send(presentError(err));
    }
    if (hasZodFastifySchemaValidationErrors(err)) return reply.status(400).send({ error: err.message });
    const status = err.statusCode ?? 500;
    if (status >= 400 && status < 500) return reply.status(status).send({ error: err.message });
    request.log.error({ err }, 'platform compat error');
    return reply.status(500).send({ error: 'Internal server error' });
  });
  // The checkpoint PUT body is streamed to storage, never parsed or buffered.
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  // ---- login (§3): 8.4.115–8.4.146 check GET /api/settings, the SDK generation GET /api/account/summary.
  app.get('/api/settings', { config: { auth: 'user' }, schema: { tags: ['compat'], response: { 200: settingsResponse } } }, async (req) =>
    presentSettings(requireUser(req).user),
  );
  app.get('/api/account/summary', { config: { auth: 'user' }, schema: { tags: ['compat'], response: { 200: accountSummaryResponse } } }, async (req) => {
    const { user } = requireUser(req);
    return presentAccountSummary(user, await training.accountCounts(ctx, user.id));
  });
  app.get('/api/api-keys', { config: { auth: 'user' }, schema: { tags: ['compat'], response: { 200: apiKeysResponse } } }, async (req) =>
    presentApiKeys(await listApiKeys(ctx, requireUser(req).user.id)),
  );

  platformWebhookRoutes(app);
  platformUploadRoutes(app);

  // ---- ul:// resolution, generation 1 (HEAD → 302 Location, §5.1) and generation 2 (SDK JSON, §5.2)
  function viewerOf(req: FastifyRequest) {
    // Anonymous reads of public items are fine; a presented but bad key is a 401 (client: "invalid API key").
    if (req.credentialError) requireUser(req);
    return req.principal?.user.id ?? null;
  }
  // `ul://<owner>/datasets/<slug>` → a signed NDJSON URL; 409 while processing.
  const datasetUrl = async (req: FastifyRequest, p: z.infer<typeof slugParams>) => {
    const dataset = await training.readyDatasetBySlug(ctx, viewerOf(req), p.owner, p.dataset);
    return signCompatUrl(ctx, baseUrlFor(ctx, req), datasetNdjsonPath(dataset), undefined, dataset.access);
  };
  // `ul://<owner>/<project>/<model>` → the model's best weights and a signed URL for them; 409 without weights.
  const weights = (req: FastifyRequest, p: z.infer<typeof modelParams>) =>
    training.bestWeightsBySlugs(ctx, viewerOf(req), p, baseUrlFor(ctx, req), MODEL_URL_TTL_MS);

  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/webhooks/datasets/:owner/:dataset/export',
    schema: { tags: ['compat'], params: slugParams },
    handler: async (req, reply) => {
      const url = await datasetUrl(req, req.params as z.infer<typeof slugParams>);
      return reply.code(302).header('location', url).send({ downloadUrl: url });
    },
  });
  app.get(
    '/api/datasets/:owner/:dataset/export',
    { schema: { tags: ['compat'], params: slugParams, response: { 200: datasetExportResponse } } },
    async (req) => ({
      downloadUrl: await datasetUrl(req, req.params as z.infer<typeof slugParams>),
      cached: false,
    }),
  );
  app.route({
    method: ['GET', 'HEAD'],
    url: '/api/webhooks/models/:owner/:project/:model/download',
    schema: { tags: ['compat'], params: modelParams },
    handler: async (req, reply) => {
      const { url } = await weights(req, req.params as z.infer<typeof modelParams>);
      return reply.code(302).header('location', url).send({ downloadUrl: url });
    },
  });
  app.get(
    '/api/models/:owner/:project/:model/files',
    { schema: { tags: ['compat'], params: modelParams, response: { 200: modelFilesResponse } } },
    async (req) => {
      const { best, url } = await weights(req, req.params as z.infer<typeof modelParams>);
      return { files: [{ name: best.blobKey.slice(best.blobKey.lastIndexOf('/') + 1), size: best.bytes, downloadUrl: url }] };
    },
  );
}
