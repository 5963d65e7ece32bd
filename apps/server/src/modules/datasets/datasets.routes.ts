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
  addImagesResultSchema,
  copyImagesBody,
  ErrorCode,
  datasetEditResultSchema,
  deleteClassBody,
  deleteImagesBody,
  imageLabelsSchema,
  mergeClassesBody,
  moveImagesBody,
  putImageLabelsBody,
  renameClassBody,
} from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { tusRoutes } from '../../platform/uploads/tus.routes.js';
import { releaseStorage, reserveResumable } from '../storage/reservations.service.js';
import { reportToText } from './processing/index.js';
import * as ds from './datasets.service.js';
import * as edits from './datasets.edits.js';

const idParams = z.object({ id: z.string().max(40) });
/** Bytes one request may add to a dataset (files and zips together); larger sets go as a new archive. */
const ADD_LIMIT_BYTES = 200 * 1024 * 1024;
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
          offset: z.coerce
            .number()
            .int()
            .min(0)
            .max(1_000_000)
            .default(0)
            .describe(
              "Deprecated for paging (ADR 0042): skips this many images, a read that grows with the offset. Page with `cursor` (the previous page's `nextCursor`); an offset is for a jump to a position only (the annotation editor's list when the page before is not loaded). Ignored when a cursor is given.",
            ),
          limit: z.coerce.number().int().min(1).max(200).default(48),
          cursor: z
            .string()
            .max(2000)
            .optional()
            .describe("The previous page's `nextCursor`: the page after it, read on the browse index (any page costs what the first does)."),
        }),
        response: { 200: z.object({ data: datasetImagesPageSchema }), ...errorResponses },
      },
    },
    async (req) => {
      return { data: await ds.listImages(ctx, viewer(req), req.params.id, req.query) };
    },
  );

  // ---- edits of the working state (ADR 0037): permission `update` of the matrix, one transaction each ----
  const editResponse = { 200: z.object({ data: datasetEditResultSchema }), ...errorResponses };
  const edit = <B extends z.ZodTypeAny>(url: string, body: B, run: (userId: string, id: string, body: z.infer<B>) => ReturnType<typeof edits.moveImages>) =>
    r.post(url, { config: { auth: 'user' }, schema: { tags: ['datasets'], params: idParams, body, response: editResponse } }, async (req) => {
      const out = await run(requireUser(req).user.id, req.params.id, req.body as z.infer<B>);
      return { data: { seq: out.seq, classes: out.classes, counts: out.counts, ...(out.imageIds ? { imageIds: out.imageIds } : {}) } };
    });
  /**
   * Adds images to a split: multipart `files` (images, `.txt` labels with the same stem, zips of them)
   * and the field `split` (and `className` for classify). Checked with the upload's rules: the answer
   * carries the same report as an upload.
   */
  r.post(
    '/v1/datasets/:id/images',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['datasets'],
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 200: z.object({ data: addImagesResultSchema }), 413: errorResponses[400], ...errorResponses },
      },
    },
    async (req) => {
      const { user } = requireUser(req);
      const dataset = await edits.editableDataset(ctx, user.id, req.params.id, 'label');
      if (!req.isMultipart()) throw errors.validation('Send multipart/form-data with `files` and `split`');
      const files: edits.AddedFile[] = [];
      const fields: Record<string, string> = {};
      let total = 0;
      for await (const part of req.parts({ limits: { fileSize: ADD_LIMIT_BYTES, files: 1000 } })) {
        if (part.type === 'file') {
          const data = await part.toBuffer();
          if (part.file.truncated) throw new AppError(413, ErrorCode.PayloadTooLarge, `Each file can be at most ${ADD_LIMIT_BYTES / 1024 ** 2} MB`);
          total += data.length;
          if (total > ADD_LIMIT_BYTES) throw new AppError(413, ErrorCode.PayloadTooLarge, `Add at most ${ADD_LIMIT_BYTES / 1024 ** 2} MB at once`);
          files.push({ filename: part.filename, data });
        } else if (typeof part.value === 'string') fields[part.fieldname] = part.value;
      }
      const split = z.enum(['train', 'val', 'test']).safeParse(fields.split);
      if (!split.success) throw errors.validation('split: train, val or test');
      return { data: await edits.addImages(ctx, user, req.params.id, { split: split.data, className: fields.className, files }, dataset) };
    },
  );

  edit('/v1/datasets/:id/images/move', moveImagesBody, (u, id, b) => edits.moveImages(ctx, u, id, b));
  edit('/v1/datasets/:id/images/copy', copyImagesBody, (u, id, b) => edits.copyImages(ctx, u, id, b));
  edit('/v1/datasets/:id/images/delete', deleteImagesBody, (u, id, b) => edits.deleteImages(ctx, u, id, b));
  edit('/v1/datasets/:id/classes/rename', renameClassBody, (u, id, b) => edits.renameClass(ctx, u, id, b));
  edit('/v1/datasets/:id/classes/merge', mergeClassesBody, (u, id, b) => edits.mergeClasses(ctx, u, id, b));
  edit('/v1/datasets/:id/classes/delete', deleteClassBody, (u, id, b) => edits.deleteClass(ctx, u, id, b));

  const labelParams = z.object({ id: z.string().max(40), imageId: z.string().max(40) });
  r.get(
    '/v1/datasets/:id/images/:imageId/labels',
    { schema: { tags: ['datasets'], params: labelParams, response: { 200: z.object({ data: imageLabelsSchema }), ...errorResponses } } },
    async (req) => ({ data: await edits.imageLabels(ctx, viewer(req), req.params.id, req.params.imageId) }),
  );
  /** 409 `error/labels-conflict` when `revision` is not the image's any more; `error.details.current` holds the labels now. */
  r.put(
    '/v1/datasets/:id/images/:imageId/labels',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['datasets'],
        params: labelParams,
        body: putImageLabelsBody,
        response: { 200: z.object({ data: imageLabelsSchema }), ...errorResponses },
      },
    },
    async (req) => ({ data: await edits.putImageLabels(ctx, requireUser(req).user.id, req.params.id, req.params.imageId, req.body) }),
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
   * served from storage (datasets.thumbnails.ts). 404 for formats that get no preview. A link names
   * one image revision, whose preview never changes: the browser keeps it for the link's life and does
   * not revalidate (`immutable`). No compression pass (a JPEG does not shrink; ADR 0043).
   */
  r.route({
    method: ['GET', 'HEAD'],
    url: '/v1/datasets/:id/images/:imageId/thumb',
    logLevel: 'warn',
    config: { compress: false },
    schema: signedImageSchema,
    handler: async (req, reply) => {
      const thumb = await ds.imageThumbnail(ctx, req.params.id, req.params.imageId, req.query);
      reply.header('content-type', 'image/jpeg');
      reply.header('content-length', thumb.kind === 'made' ? thumb.data.length : thumb.bytes);
      reply.header('cache-control', 'private, max-age=600, immutable');
      if (req.method === 'HEAD') {
        if (thumb.kind === 'stored') thumb.stream.destroy();
        return reply.send();
      }
      return reply.send(thumb.kind === 'made' ? thumb.data : thumb.stream);
    },
  });
}
