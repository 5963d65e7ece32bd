import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerModelsListeners } from './models.listeners.js';
import { modelsRoutes } from './models.routes.js';
import { modelReaders, readableModel } from './models.service.js';

/** Models: routes, and who may listen to `model:<id>` (who may read it). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerModelsListeners(ctx);
  app.topics.register('model', {
    one: (uid, id) =>
      readableModel(ctx, uid, id).then(
        () => true,
        () => false,
      ),
    many: (uids, id) => modelReaders(ctx, uids, id),
  });
  await app.register(modelsRoutes);
}
