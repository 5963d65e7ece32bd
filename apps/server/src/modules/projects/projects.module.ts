import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerProjectsListeners } from './projects.listeners.js';
import { projectsRoutes } from './projects.routes.js';
import { projectReaders, readableProject } from './projects.service.js';

/** Projects: routes, and who may listen to `project:<id>` (who may read it). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerProjectsListeners(ctx);
  app.topics.register('project', {
    one: (uid, id) =>
      readableProject(ctx, uid, id).then(
        () => true,
        () => false,
      ),
    many: (uids, id) => projectReaders(ctx, uids, id),
  });
  await app.register(projectsRoutes);
}
