import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { emptyTrashResponseSchema, trashItemSchema } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { projectDeleteRoute } from '../projects/projects.routes.js';
import { deleteForever, deleteProject, emptyTrash, listTrash, restoreItem } from './trash.service.js';

const itemParams = z.object({ type: z.enum(['dataset', 'project', 'model', 'datasetVersion']), id: z.string().max(40) });

export async function trashRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  // DELETE /v1/projects/{id} is filed with the projects' routes; its deletion takes the models along, so it is carried out here.
  projectDeleteRoute(app, deleteProject);
  r.get(
    '/v1/trash',
    { config: { auth: 'user' }, schema: { tags: ['trash'], response: { 200: z.object({ data: z.array(trashItemSchema) }), ...errorResponses } } },
    async (req) => ({
      data: await listTrash(ctx, requireUser(req).user.id),
    }),
  );
  r.post(
    '/v1/trash/:type/:id/restore',
    { config: { auth: 'user' }, schema: { tags: ['trash'], params: itemParams, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await restoreItem(ctx, requireUser(req).user.id, req.params.type, req.params.id);
      return ok;
    },
  );
  r.delete(
    '/v1/trash/:type/:id',
    { config: { auth: 'user' }, schema: { tags: ['trash'], params: itemParams, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      await deleteForever(ctx, requireUser(req).user.id, req.params.type, req.params.id);
      return ok;
    },
  );
  r.delete(
    '/v1/trash',
    { config: { auth: 'user' }, schema: { tags: ['trash'], response: { 200: z.object({ data: emptyTrashResponseSchema }), ...errorResponses } } },
    async (req) => ({
      data: { removed: await emptyTrash(ctx, requireUser(req).user.id) },
    }),
  );
}
