import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ErrorCode, createProjectBody, listQuerySchema, pageSchema, projectSchema, reorderBody, shareBody, updateProjectBody } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError } from '../../platform/http/errors.js';
import { errorResponses, ok, okSchema } from '../../platform/http/schemas.js';
import { intakeImage } from '../../platform/images/svg.js';
import * as projects from './projects.service.js';

const idParams = z.object({ id: z.string().max(40) });
const one = z.object({ data: projectSchema });
const IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml']);

/** Hard deletion (`?hard=true`) or the move to the trash, as the trash module carries them out. */
export type DeleteProject = (ctx: AppContext, userId: string, id: string, hard: boolean) => Promise<void>;

/**
 * DELETE /v1/projects/{id}, filed with the project's routes. Deleting a project takes its models
 * along, so the operation belongs to the trash module (above projects and models); trash.routes.ts
 * registers this route with it, and projects imports nothing of trash (no folder cycle).
 */
export function projectDeleteRoute(app: FastifyInstance, deleteProject: DeleteProject) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.delete(
    '/v1/projects/:id',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['projects'],
        params: idParams,
        querystring: z.object({ hard: z.enum(['True', 'False', 'true', 'false']).optional() }),
        response: { 200: okSchema, ...errorResponses },
      },
    },
    async (req) => {
      await deleteProject(app.ctx, requireUser(req).user.id, req.params.id, req.query.hard?.toLowerCase() === 'true');
      return ok;
    },
  );
}

export async function projectsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;
  const viewer = (req: { principal: { user: { id: string } } | null }) => req.principal?.user.id ?? null;

  // hub-sdk list shape; `public=True` lists everyone's public projects.
  r.get(
    '/v1/projects',
    { schema: { tags: ['projects'], querystring: listQuerySchema, response: { 200: z.object({ data: pageSchema(projectSchema) }), ...errorResponses } } },
    async (req) => {
      const publicOnly = req.query.public?.toLowerCase() === 'true';
      const uid = publicOnly ? null : requireUser(req).user.id;
      return {
        data: await projects.listProjects(ctx, viewer(req), {
          ownerId: uid ?? undefined,
          publicOnly,
          includeDeleted: req.query.includeDeleted === 'true',
          includeArchived: req.query.includeArchived === 'true',
          limit: req.query.limit,
          afterId: req.query.last_doc_id,
        }),
      };
    },
  );

  r.post(
    '/v1/projects',
    { config: { auth: 'user' }, schema: { tags: ['projects'], body: createProjectBody, response: { 201: one, ...errorResponses } } },
    async (req, reply) => {
      const { user } = requireUser(req);
      const b = req.body;
      const row = await projects.createProject(ctx, user.id, {
        name: b.meta?.name ?? b.name,
        description: b.meta?.description ?? b.description,
        privacy: b.meta?.privacy,
      });
      return reply.status(201).send({ data: (await projects.presentProjects(ctx, user.id, [row]))[0]! });
    },
  );

  r.get('/v1/projects/:id', { schema: { tags: ['projects'], params: idParams, response: { 200: one, ...errorResponses } } }, async (req) => {
    const row = await projects.readableProject(ctx, viewer(req), req.params.id);
    return { data: (await projects.presentProjects(ctx, viewer(req), [row]))[0]! };
  });

  r.patch(
    '/v1/projects/:id',
    { config: { auth: 'user' }, schema: { tags: ['projects'], params: idParams, body: updateProjectBody, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const b = req.body;
      const row = await projects.updateProject(ctx, user.id, req.params.id, {
        name: b.meta?.name ?? b.name,
        description: b.meta?.description ?? b.description,
      });
      return { data: (await projects.presentProjects(ctx, user.id, [row]))[0]! };
    },
  );

  r.post(
    '/v1/projects/:id/share',
    { config: { auth: 'user' }, schema: { tags: ['projects'], params: idParams, body: shareBody, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const row = await projects.shareProject(ctx, user.id, req.params.id, req.body.privacy);
      return { data: (await projects.presentProjects(ctx, user.id, [row]))[0]! };
    },
  );

  r.put(
    '/v1/projects/:id/order',
    { config: { auth: 'user' }, schema: { tags: ['projects'], params: idParams, body: reorderBody, response: { 200: okSchema, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      await projects.reorderModels(ctx, user.id, req.params.id, req.body.modelIds);
      return ok;
    },
  );

  // Archive / unarchive (spec §4 dates.archived): lists hide archived items unless includeArchived=true.
  for (const [verb, archived] of [
    ['archive', true],
    ['unarchive', false],
  ] as const) {
    r.post(
      `/v1/projects/:id/${verb}`,
      { config: { auth: 'user' }, schema: { tags: ['projects'], params: idParams, response: { 200: one, ...errorResponses } } },
      async (req) => {
        const { user } = requireUser(req);
        const row = await projects.setProjectArchived(ctx, user.id, req.params.id, archived);
        return { data: (await projects.presentProjects(ctx, user.id, [row]))[0]! };
      },
    );
  }

  r.post(
    '/v1/projects/:id/restore',
    { config: { auth: 'user' }, schema: { tags: ['projects'], params: idParams, response: { 200: one, ...errorResponses } } },
    async (req) => {
      const { user } = requireUser(req);
      const row = await projects.restoreProject(ctx, user.id, req.params.id);
      return { data: (await projects.presentProjects(ctx, user.id, [row]))[0]! };
    },
  );

  // Cover image through the image-only drop zone; stored at users/{uid}/projects/{id}.
  r.post(
    '/v1/projects/:id/image',
    {
      config: { auth: 'user' },
      schema: { tags: ['projects'], params: idParams, consumes: ['multipart/form-data'], response: { 200: one, ...errorResponses } },
    },
    async (req) => {
      const { user } = requireUser(req);
      await projects.ownedProject(ctx, user.id, req.params.id);
      const file = await req.file({ limits: { fileSize: 5 * 1024 * 1024 } });
      if (!file || !IMAGE_TYPES.has(file.mimetype)) throw new AppError(400, ErrorCode.InvalidImage, 'Must be a valid image file!');
      const buf = await file.toBuffer();
      if (file.file.truncated) throw new AppError(413, ErrorCode.PayloadTooLarge, 'Cover images can be at most 5 MB');
      // An SVG is drawn into a PNG (platform/images/svg.ts): never kept or served as SVG.
      const image = await intakeImage({ bytes: buf, contentType: file.mimetype, filename: file.filename });
      const row = await projects.setProjectImage(ctx, user.id, req.params.id, image.bytes, image.contentType);
      return { data: (await projects.presentProjects(ctx, user.id, [row]))[0]! };
    },
  );
}
