import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Readable } from 'node:stream';
import {
  AGENT_TOKEN_HEADER,
  createExportBody,
  envelope,
  EXPORT_FORMATS,
  exportFormatSchema,
  modelExportSchema,
  modelExportsSchema,
  okBodySchema,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errors } from '../../platform/http/errors.js';
import { errorResponses, ok } from '../../platform/http/schemas.js';
import { resolveApiKey } from '../auth/auth.service.js';
import { sendBlob } from '../../platform/http/send-blob.js';
import { agentByToken } from '../agents/agents.service.js';
import { createExport, exportInputKey, latestExport, listExports, readableExport, resetModel, retryExport, storeArtifact } from './exports.service.js';
import { attachExportWorker } from './exports.local-worker.js';
import { presentExport } from './exports.presenter.js';

const tags = ['exports'];
const modelParams = z.object({ id: z.string().max(40) });
const idParams = modelParams;
const exportParams = z.object({ id: z.string().max(40), exportId: z.string().max(40) });

/** Model exports (list, request, retry, download) and the legacy HUB client's export verbs. */
export async function exportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;
  // The built-in export worker of this instance (started by startExportWorker after listen; ADR 0022).
  attachExportWorker(app, ctx);

  r.get(
    '/v1/models/:id/exports',
    { schema: { tags, params: modelParams, response: { 200: envelope(modelExportsSchema), ...errorResponses } } },
    async (req) => {
      const { model, rows, agentsOnline, worker } = await listExports(ctx, viewer(req), req.params.id);
      const mine = model.userId === viewer(req);
      return { data: { exports: rows.map((row) => presentExport(row, mine)), agentsOnline, worker } };
    },
  );

  r.post(
    '/v1/models/:id/exports',
    {
      config: { auth: 'user' },
      schema: { tags, params: modelParams, body: createExportBody, response: { 201: envelope(modelExportSchema), ...errorResponses } },
    },
    async (req, reply) => {
      const row = await createExport(ctx, requireUser(req).user.id, req.params.id, req.body);
      return reply.status(201).send({ data: presentExport(row, true) });
    },
  );

  r.post(
    '/v1/models/:id/exports/:exportId/retry',
    { config: { auth: 'user' }, schema: { tags, params: exportParams, response: { 200: envelope(modelExportSchema), ...errorResponses } } },
    async (req) => ({
      data: presentExport(await retryExport(ctx, requireUser(req).user.id, req.params.id, req.params.exportId), true),
    }),
  );

  r.get('/v1/models/:id/exports/:exportId/download', { schema: { tags, params: exportParams } }, async (req, reply) => {
    const { row } = await readableExport(ctx, viewer(req), req.params.id, req.params.exportId);
    if (row.status !== 'succeeded' || !row.blobKey) throw errors.notFound('Export file');
    reply.header('content-disposition', `attachment; filename="${row.fileName ?? 'export'}"`);
    return sendBlob(ctx, req, reply, row.blobKey, 'application/octet-stream');
  });

  // ---- the agent's side of an export job: the weights in, the exported file out (x-agent-token)

  // Artifacts are streamed to storage, never buffered.
  app.addContentTypeParser('application/octet-stream', (_req, payload, done) => done(null, payload));
  const agentTags = ['agents'];
  r.get('/v1/agents/jobs/:id/input', { schema: { tags: agentTags, params: idParams } }, async (req, reply) => {
    const key = await exportInputKey(ctx, await agentByToken(ctx, req.headers[AGENT_TOKEN_HEADER] as string | undefined), req.params.id);
    return sendBlob(ctx, req, reply, key, 'application/octet-stream');
  });

  r.put(
    '/v1/agents/jobs/:id/artifact',
    {
      bodyLimit: 8 * 1024 ** 3,
      schema: {
        tags: agentTags,
        params: idParams,
        querystring: z.object({ name: z.string().min(1).max(255) }),
        response: { 200: envelope(z.object({ bytes: z.number() })), ...errorResponses },
      },
    },
    async (req) => {
      const declared = Number(req.headers['content-length']);
      return {
        data: await storeArtifact(
          ctx,
          await agentByToken(ctx, req.headers[AGENT_TOKEN_HEADER] as string | undefined),
          req.params.id,
          req.query.name,
          req.body as Readable,
          Number.isFinite(declared) ? declared : undefined,
        ),
      };
    },
  );

  // ---- legacy HUB client (hub-protocol §5.10): x-api-key header, or apiKey in the body (≤ 8.0.238).

  const legacyUser = async (req: FastifyRequest, body: { apiKey?: string | null }) => {
    if (req.principal) return req.principal.user;
    const p = body.apiKey ? await resolveApiKey(ctx, body.apiKey) : null;
    if (!p) throw errors.unauthorized('Invalid or missing API key');
    return p.user;
  };
  const legacyFormat = z
    .string()
    .max(40)
    .transform((f) => f.replace(/^ultralytics_/, ''));

  r.post(
    '/v1/models/:id/export',
    {
      schema: {
        tags: ['compat'],
        params: modelParams,
        body: z.object({ format: legacyFormat, apiKey: z.string().nullish() }),
        response: { 200: z.object({ success: z.boolean(), message: z.string(), data: modelExportSchema }), ...errorResponses },
      },
    },
    async (req) => {
      const format = exportFormatSchema.safeParse(req.body.format);
      if (!format.success) throw errors.validation(`Unknown export format; use one of ${EXPORT_FORMATS.join(', ')}`);
      const user = await legacyUser(req, req.body);
      const row = await createExport(ctx, user.id, req.params.id, { format: format.data, options: {} });
      return { success: true, message: 'Export started', data: presentExport(row, true) };
    },
  );

  r.post(
    '/get-export',
    {
      schema: {
        tags: ['compat'],
        body: z.object({ modelId: z.string().max(40), format: legacyFormat, apiKey: z.string().nullish() }),
        response: { 200: z.object({ success: z.boolean(), data: modelExportSchema.extend({ url: z.string().nullable() }) }), ...errorResponses },
      },
    },
    async (req) => {
      const user = await legacyUser(req, req.body);
      const row = await latestExport(ctx, user.id, req.body.modelId, req.body.format);
      const data = presentExport(row, true);
      const base = ctx.baseUrl(`${req.protocol}://${req.host}`);
      return { success: true, data: { ...data, url: data.downloadUrl ? `${base}${data.downloadUrl}` : null } };
    },
  );

  r.post(
    '/model-reset',
    {
      schema: {
        tags: ['compat'],
        body: z.object({ modelId: z.string().max(40), apiKey: z.string().nullish() }),
        response: { 200: z.object({ success: z.boolean(), data: okBodySchema }), ...errorResponses },
      },
    },
    async (req) => {
      const user = await legacyUser(req, req.body);
      await resetModel(ctx, user.id, req.body.modelId);
      return { success: true, ...ok };
    },
  );
}
