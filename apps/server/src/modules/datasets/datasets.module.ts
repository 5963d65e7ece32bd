import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerDatasetsListeners } from './datasets.listeners.js';
import { registerDatasetProcessing } from './datasets.process.js';
import { datasetsRoutes } from './datasets.routes.js';
import { PROCESS_QUEUE, datasetReaders, readableDataset } from './datasets.service.js';

/** Datasets: the processing job, who may listen to `dataset:<id>` (who may read it), routes (uploads through tus). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerDatasetsListeners(ctx);
  registerDatasetProcessing(ctx, PROCESS_QUEUE);
  app.topics.register('dataset', {
    one: (uid, id) =>
      readableDataset(ctx, uid, id).then(
        () => true,
        () => false,
      ),
    many: (uids, id) => datasetReaders(ctx, uids, id),
  });
  await app.register(datasetsRoutes);
}
