import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  createDatasetBody,
  datasetReportSchema,
  datasetSchema,
  listQuerySchema,
  pageSchema,
  shareBody,
  updateDatasetBody,
  uploadTokenBody,
  uploadTokenResponse,
  datasetImagesPageSchema,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errors } from '../../platform/http/errors.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { tusRoutes } from '../../platform/uploads/tus.routes.js';
import { releaseStorage, reserveResumable } from '../storage/reservations.service.js';
import { reportToText } from './processing/index.js';
import * as ds from './datasets.service.js';

const idParams = z.object({ id: z.string().max(40) });
const one = z.object({ data: datasetSchema });
const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  gif: 'image/gif',
};

export async function datasetsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;
  const present = (req: FastifyRequest, id: string) => ds.presentDatasetById(ctx, viewer(req), id);

  await app.register(tusRoutes, {
    onFinished: (upload) => ds.finishUpload(ctx, upload),
    reserve: (uid, uploadId, bytes) => reserveResumable(ctx, uid, uploadId, bytes),
    release: (uploadId) => releaseStorage(ctx, uploadId),
  });

  r.post(
    '/v1/uploads/token',
    {
      config: { auth: 'user' },
      schema: { tags: ['datasets'], body: uploadTokenBody, response: { 200: z.object({ data: uploadTokenResponse }), ...errorResponses } },
    },
    async (req) => ({
      data: await ds.uploadToken(ctx, requireUser(req).user, req.body.path, req.body.bytes),
    }),
  );

  r.get(
    '/v1/datasets',
    {
      schema: {
        tags: ['datasets'],
        querystring: listQuerySchema.extend({
          task: z.string().max(32).optional(),
          provider: z.string().max(32).optional(),
          privacy: z.enum(['private', 'unlisted', 'public']).optional(),
          processed: z.enum(['true', 'false']).optional(),
        }),
        response: { 200: z.object({ data: pageSchema(datasetSchema) }), ...errorResponses },
      },
    },
    async (req) => {
      const q = req.query;
      const publicOnly = q.public?.toLowerCase() === 'true';
      const uid = publicOnly ? null : requireUser(req).user.id;
      return {
        data: await ds.listDatasets(ctx, viewer(req), {
          ownerId: uid ?? undefined,
          publicOnly,
          task: q.task,
          provider: q.provider,
          privacy: q.privacy,
          processedOnly: q.processed === 'true',
          includeDeleted: q.includeDeleted === 'true' && !publicOnly,
          includeArchived: q.includeArchived === 'true',
          limit: q.limit,
          afterId: q.last_doc_id,
        }),
      };
    },
  );

  r.post(
    '/v1/datasets',
    { config: { auth: 'user' }, schema: { tags: ['datasets'], body: createDatasetBody, response: { 201: one, ...errorResponses } } },
    async (req, reply) => {
      const { user } = requireUser(req);
      const b = req.body;
      const name = b.meta?.name ?? b.name;
      if (!name) throw errors.validation('meta.name: Name the dataset');
      const row = await ds.createDataset(ctx, user.id, { name, description: b.meta?.description ?? b.description, task: b.task, privacy: b.meta?.privacy });
      return reply.status(201).send({ data: await present(req, row.id) });
    },
  );

  r.get('/v1/datasets/:id', { schema: { tags: ['datasets'], params: idParams, response: { 200: one, ...errorResponses } } }, async (req) => {
    const row = await ds.readableDataset(ctx, viewer(req), req.params.id);
    return { data: await present(req, row.id) };
  });

  r.patch(
    '/v1/datasets/:id',
    { config: { auth: 'user' }, schema: { tags: ['datasets'], params: idParams, body: updateDatasetBody, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await ds.updateDataset(ctx, user.id, req.params.id, { name: req.body.meta?.name, description: req.body.meta?.description, task: req.body.task });
      return { data: await present(req, req.params.id) };
    },
  );

  r.post(
    '/v1/datasets/:id/share',
    { config: { auth: 'user' }, schema: { tags: ['datasets'], params: idParams, body: shareBody, response: { 200: one, ...errorResponses } } },
    async (req) => {
      await ds.shareDataset(ctx, requireUser(req).user.id, req.params.id, req.body.privacy);
      return { data: await present(req, req.params.id) };
    },
  );

  r.delete(
    '/v1/datasets/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['datasets'],
        params: idParams,
        querystring: z.object({ hard: z.enum(['True', 'False', 'true', 'false']).optional() }),
        response: { 200: okSchema, ...errorResponses },
      },
    },
    async (req) => {
      const { user } = requireUser(req);
      if (req.query.hard?.toLowerCase() === 'true') {
        const row = await ds.ownedDataset(ctx, user.id, req.params.id, { allowDeleted: true, action: 'delete' });
        await ds.purgeDataset(ctx, row);
      } else {
        await ds.deleteDataset(ctx, user.id, req.params.id);
      }
      return ok;
    },
  );

  // Archive / unarchive (spec §4 dates.archived): lists hide archived items unless includeArchived=true.
  for (const [verb, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    r.post(
      `/v1/datasets/:id/${verb}`,
      { config: { auth: 'user' }, schema: { tags: ['datasets'], params: idParams, response: { 200: one, ...errorResponses } } },
      async (req) => {
        await ds.setDatasetArchived(ctx, requireUser(req).user.id, req.params.id, archived);
        return { data: await present(req, req.params.id) };
      },
    );
  }

  r.post(
    '/v1/datasets/:id/restore',
    { config: { auth: 'user' }, schema: { tags: ['datasets'], params: idParams, response: { 200: one, ...errorResponses } } },
    async (req) => {
      await ds.restoreDataset(ctx, requireUser(req).user.id, req.params.id);
      return { data: await present(req, req.params.id) };
    },
  );

  // Spec §7: empty body; processing runs as a job.
  r.post(
    '/v1/datasets/:id/process',
    { config: { auth: 'user' }, schema: { tags: ['datasets'], params: idParams, response: { 202: one, ...errorResponses } } },
    async (req, reply) => {
      await ds.requestProcessing(ctx, requireUser(req).user.id, req.params.id);
      return reply.status(202).send({ data: await present(req, req.params.id) });
    },
  );

  r.get(
    '/v1/datasets/:id/download',
    { schema: { tags: ['datasets'], params: idParams, response: { 200: z.object({ data: z.object({ url: z.string() }) }), ...errorResponses } } },
    async (req) => {
      const row = await ds.readableDataset(ctx, viewer(req), req.params.id);
      return { data: { url: await ds.archiveDownloadUrl(ctx, row, '') } };
    },
  );

  r.get(
    '/v1/datasets/:id/report',
    {
      schema: {
        tags: ['datasets'],
        params: idParams,
        querystring: z.object({ format: z.enum(['json', 'txt']).default('json') }),
        response: { 200: z.union([z.object({ data: datasetReportSchema.nullable() }), z.string()]), ...errorResponses },
      },
    },
    async (req, reply) => {
      const row = await ds.readableDataset(ctx, viewer(req), req.params.id);
      const report = row.report;
      if (req.query.format === 'txt') {
        if (!report) throw errors.notFound('Report');
        return reply
          .header('content-disposition', `attachment; filename="${ds.reportFileName(row)}"`)
          .type('text/plain; charset=utf-8')
          .send(reportToText(report));
      }
      return { data: report };
    },
  );

  r.get(
    '/v1/datasets/:id/images',
    {
      schema: {
        tags: ['datasets'],
        params: idParams,
        querystring: z.object({
          split: z.enum(['train', 'val', 'test']).optional(),
          offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
          limit: z.coerce.number().int().min(1).max(200).default(48),
          cursor: z.string().max(2000).optional(),
        }),
        response: { 200: z.object({ data: datasetImagesPageSchema }), ...errorResponses },
      },
    },
    async (req) => {
      return { data: await ds.listImages(ctx, viewer(req), req.params.id, req.query) };
    },
  );

  /** An image behind its signed link (datasets.image-urls.ts): the original and its preview share it. */
  const signedImageSchema = {
    tags: ['datasets'],
    params: z.object({ id: z.string().max(40), imageId: z.string().max(40) }),
    querystring: z.object({ sig: z.string().max(100), exp: z.string().max(20).optional(), h: z.string().max(60).optional() }),
  };

  /**
   * Original image bytes straight out of the archive (no second copy): a byte range of the blob,
   * inflated when the entry is deflated. Stable signed URL, so clients can fetch in parallel.
   */
  r.route({
    method: ['GET', 'HEAD'],
    url: '/v1/datasets/:id/images/:imageId/raw',
    logLevel: 'warn',
    schema: signedImageSchema,
    handler: async (req, reply) => {
      const image = await ds.rawImage(ctx, req.params.id, req.params.imageId, req.query);
      const ext = image.name.split('.').pop()?.toLowerCase() ?? '';
      reply.header('content-type', CONTENT_TYPES[ext] ?? 'application/octet-stream');
      reply.header('content-length', image.bytes);
      reply.header('cache-control', 'private, max-age=600');
      if (req.method === 'HEAD') return reply.send();
      return reply.send(await image.open());
    },
  });

  /**
   * An image's 256 px JPEG preview behind the original's signed link: made on first view, then
   * served from storage (datasets.thumbnails.ts). 404 for formats that get no preview.
   */
  r.route({
    method: ['GET', 'HEAD'],
    url: '/v1/datasets/:id/images/:imageId/thumb',
    logLevel: 'warn',
    schema: signedImageSchema,
    handler: async (req, reply) => {
      const thumb = await ds.imageThumbnail(ctx, req.params.id, req.params.imageId, req.query);
      reply.header('content-type', 'image/jpeg');
      reply.header('content-length', thumb.kind === 'made' ? thumb.data.length : thumb.bytes);
      reply.header('cache-control', 'private, max-age=600');
      if (req.method === 'HEAD') {
        if (thumb.kind === 'stored') thumb.stream.destroy();
        return reply.send();
      }
      return reply.send(thumb.kind === 'made' ? thumb.data : thumb.stream);
    },
  });
}
