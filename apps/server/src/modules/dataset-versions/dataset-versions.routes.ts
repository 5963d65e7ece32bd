import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { datasetDiffQuery, datasetDiffSchema, datasetVersionDetailSchema, datasetVersionSchema, saveVersionBody } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import * as versions from './dataset-versions.service.js';

const idParams = z.object({ id: z.string().max(40) });
const versionParams = idParams.extend({ number: z.coerce.number().int().min(1).max(1_000_000_000) });

/** Dataset versions and diffs (ADR 0038); the dataset's permission matrix decides (read, update, download, delete). */
export async function datasetVersionsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: FastifyRequest) => req.principal?.user.id ?? null;
  const tags = ['dataset-versions'];

  r.post(
    '/v1/datasets/:id/versions',
    {
      config: { auth: 'user' },
      schema: { tags, params: idParams, body: saveVersionBody, response: { 201: z.object({ data: datasetVersionSchema }), ...errorResponses } },
    },
    async (req, reply) => reply.status(201).send({ data: await versions.saveVersion(ctx, requireUser(req).user.id, req.params.id, req.body.note) }),
  );

  r.get(
    '/v1/datasets/:id/versions',
    { schema: { tags, params: idParams, response: { 200: z.object({ data: z.array(datasetVersionSchema) }), ...errorResponses } } },
    async (req) => ({ data: await versions.listVersions(ctx, viewer(req), req.params.id) }),
  );

  r.get(
    '/v1/datasets/:id/versions/:number',
    { schema: { tags, params: versionParams, response: { 200: z.object({ data: datasetVersionDetailSchema }), ...errorResponses } } },
    async (req) => ({ data: await versions.getVersion(ctx, viewer(req), req.params.id, req.params.number) }),
  );

  /** The version as a YOLO zip: identical content gives identical bytes (ADR 0038). */
  r.get(
    '/v1/datasets/:id/versions/:number/download',
    { schema: { tags, params: versionParams, response: { 200: z.any().describe('application/zip'), ...errorResponses } } },
    async (req, reply) => {
      const zip = await versions.downloadVersion(ctx, viewer(req), req.params.id, req.params.number);
      const size = await zip.size;
      reply.header('content-type', 'application/zip');
      reply.header('content-disposition', `attachment; filename="${zip.filename}"`);
      if (size !== null) reply.header('content-length', size);
      return reply.send(zip.stream);
    },
  );

  r.delete(
    '/v1/datasets/:id/versions/:number',
    { config: { auth: 'user' }, schema: { tags, params: versionParams, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await versions.deleteVersion(ctx, requireUser(req).user.id, req.params.id, req.params.number);
      return ok;
    },
  );

  r.get(
    '/v1/datasets/:id/diff',
    { schema: { tags, params: idParams, querystring: datasetDiffQuery, response: { 200: z.object({ data: datasetDiffSchema }), ...errorResponses } } },
    async (req) => ({ data: await versions.diffVersions(ctx, viewer(req), req.params.id, req.query.from, req.query.to) }),
  );
}
