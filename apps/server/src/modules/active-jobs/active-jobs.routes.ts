import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { activeJobsSchema } from '@sightline/contracts';
import { requireUser } from '../../platform/http/auth-context.js';
import { errorResponses } from '../../platform/http/schemas.js';
import { activeJobs } from '../datasets/datasets.service.js';

/** /active-jobs: the user's uploads in flight and datasets being processed (the web's Active jobs page). */
export async function activeJobsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const ctx = app.ctx;

  r.get(
    '/v1/active-jobs',
    { config: { auth: 'user' }, schema: { tags: ['datasets'], response: { 200: z.object({ data: activeJobsSchema }), ...errorResponses } } },
    async (req) => ({ data: await activeJobs(ctx, requireUser(req).user.id) }),
  );
}
