import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorCode,
  createModelBody,
  listQuerySchema,
  Messages,
  modelSchema,
  pageSchema,
  shareBody,
  transferModelBody,
  updateModelBody,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { multipartClientError } from '../../platform/http/input-guard.js';
import { AppError } from '../../platform/http/errors.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { newId } from '../../platform/ids.js';
import * as models from './models.service.js';
import { createUploadedModel, discardUpload, storeWeights, type StoredWeights } from './models.upload.js';
import { baseUrlFor } from '../../platform/http/signed-links.js';

const idParams = z.object({ id: z.string().max(40) });
const one = z.object({ data: modelSchema });

export async function modelsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;
  // Live model updates: whoever may read the model may watch it.
  const present = (req: FastifyRequest, id: string) => models.presentModelById(ctx, viewer(req), id);

  r.get(
    '/v1/models',
    {
      schema: {
        tags: ['models'],
        querystring: listQuerySchema.extend({ projectId: z.string().max(40).optional() }),
        response: { 200: z.object({ data: pageSchema(modelSchema) }), ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query;
      const publicOnly = q.public?.toLowerCase() === 'true';
      // A project's models are listed for whoever may read the project; else the caller's own.
      const ownerId = q.projectId || publicOnly ? undefined : requireUser(req).user.id;
      return {
        data: await models.listModels(ctx, viewer(req), {
          ownerId,
          projectId: q.projectId,
          publicOnly,
          includeDeleted: q.includeDeleted === 'true' && !publicOnly,
          includeArchived: q.includeArchived === 'true',
          limit: q.limit,
          afterId: q.last_doc_id,
        }),
      };
    },
  );

  // Readable project ⇒ its models are readable (spec §6: models by project when public or unlisted).
  r.get(
    '/v1/projects/:id/models',
    { schema: { tags: ['projects'], params: idParams, response: { 200: z.object({ data: z.array(modelSchema) }), ...errorResponses } } },
    async (req) => ({
      data: await models.projectModels(ctx, viewer(req), req.params.id),
    }),
  );

  r.post('/v1/models', { schema: { tags: ['models'], body: createModelBody, response: { 201: one, ...errorResponses } } }, async (req, reply) => {
    const b = req.body;
    const row = await models.createModel(ctx, {
      userId: req.principal?.user.id ?? null,
      projectId: b.project?.id ?? b.projectId ?? null,
      name: b.meta?.name,
      description: b.meta?.description,
      privacy: b.meta?.privacy,
      config: b.config,
      datasetId: b.dataset?.id ?? null,
      datasetName: b.dataset?.name ?? null,
      architecture: b.lineage?.architecture,
      parent: b.lineage?.parent as { id?: string; name?: string } | undefined,
      task: b.task ?? null,
    });
    return reply.status(201).send({ data: await present(req, row.id) });
  });

  // Also the ultralytics HUB client's model document (hub-protocol §10): the web shape plus the HUB fields.
  r.get(
    '/v1/models/:id',
    { schema: { tags: ['models'], params: idParams, response: { 200: z.object({ success: z.literal(true), data: modelSchema }), ...errorResponses } } },
    async (req) => {
      return { success: true as const, data: await models.modelDocument(ctx, viewer(req), req.params.id, baseUrlFor(ctx, req)) };
    },
  );

  r.patch(
    '/v1/models/:id',
    { config: { auth: 'user' }, schema: { tags: ['models'], params: idParams, body: updateModelBody, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const b = req.body;
      await models.updateModel(ctx, user.id, req.params.id, {
        name: b.meta?.name,
        description: b.meta?.description,
        config: b.config,
        datasetId: b.dataset?.id,
        architecture: b.lineage?.architecture,
        parent: b.lineage?.parent as { id?: string; name?: string } | undefined,
      });
      return { data: await present(req, req.params.id) };
    },
  );

  r.post(
    '/v1/models/:id/share',
    { config: { auth: 'user' }, schema: { tags: ['models'], params: idParams, body: shareBody, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await models.shareModel(ctx, user.id, req.params.id, req.body.privacy);
      return { data: await present(req, req.params.id) };
    },
  );

  r.post(
    '/v1/models/:id/transfer',
    { config: { auth: 'user' }, schema: { tags: ['models'], params: idParams, body: transferModelBody, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await models.transferModel(ctx, user.id, req.params.id, req.body.projectId);
      return { data: await present(req, req.params.id) };
    },
  );

  r.delete(
    '/v1/models/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['models'],
        params: idParams,
        querystring: z.object({ hard: z.enum(['True', 'False', 'true', 'false']).optional() }),
        response: { 200: okSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { user } = requireUser(req);
      await models.deleteModel(ctx, user.id, req.params.id, req.query.hard?.toLowerCase() === 'true');
      return ok;
    },
  );

  // Archive / unarchive (spec §4 dates.archived): lists hide archived items unless includeArchived=true.
  for (const [verb, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    r.post(
      `/v1/models/:id/${verb}`,
      { config: { auth: 'user' }, schema: { tags: ['models'], params: idParams, response: { 200: one, ...errorResponses } } },
      async (req) => {
        await models.setModelArchived(ctx, requireUser(req).user.id, req.params.id, archived);
        return { data: await present(req, req.params.id) };
      },
    );
  }

  r.post(
    '/v1/models/:id/restore',
    { config: { auth: 'user' }, schema: { tags: ['models'], params: idParams, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await models.restoreModel(ctx, user.id, req.params.id);
      return { data: await present(req, req.params.id) };
    },
  );

  /**
   * Locally trained weights (spec §7): multipart model_name, project_id, project_name, file.
   * The file is streamed, checked by magic bytes and counted against storage; answers {data:{id}}.
   */
  r.post(
    '/v1/models/upload',
    {
      config: { auth: 'user' },
      schema: { tags: ['models'], consumes: ['multipart/form-data'], response: { 201: z.object({ data: z.object({ id: z.string() }) }), ...errorResponses } },
    },
    async (req, reply) => {
      const { user } = requireUser(req);
      if (!req.isMultipart()) throw new AppError(400, ErrorCode.Validation, 'Send multipart/form-data with model_name, project_id, project_name and file');
      const fields: Record<string, string> = {};
      const modelId = newId();
      let stored: StoredWeights | null = null;
      let filename = '';
      try {
        for await (const part of req.parts({ limits: { fileSize: 2 * 1024 ** 3 + 1, files: 1, fieldSize: 4096 } })) {
          if (part.type === 'file') {
            if (part.fieldname !== 'file') {
              part.file.resume();
              continue;
            }
            filename = part.filename;
            stored = await storeWeights(ctx, user, modelId, {
              filename: part.filename,
              stream: part.file,
              expectedBytes: Number(req.headers['content-length']) || undefined,
            });
          } else {
            fields[part.fieldname] = String(part.value ?? '');
          }
        }
        if (!stored) throw new AppError(400, ErrorCode.Validation, 'Attach the weights in the `file` field');
        await createUploadedModel(ctx, user.id, modelId, stored, {
          filename,
          modelName: fields.model_name,
          projectId: fields.project_id,
          projectName: fields.project_name,
        });
        return reply.status(201).send({ data: { id: modelId } });
      } catch (err) {
        await discardUpload(ctx, modelId, stored);
        const mistake = multipartClientError(err);
        if (mistake) throw mistake;
        if (((err as { statusCode?: number }).statusCode ?? 500) < 500) throw err;
        req.log.error({ err }, 'model upload failed');
        throw new AppError(500, ErrorCode.Unknown, Messages.unableUploadModel);
      }
    },
  );
}
