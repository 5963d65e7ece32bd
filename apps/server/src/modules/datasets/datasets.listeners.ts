import { topics, type DatasetState } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { evictLinkedDatasetsOnChange } from './datasets.link-facts.js';

type DatasetMessage = 'dataset.created' | 'dataset.updated' | 'dataset.deleted' | 'dataset.restored';

/** Realtime for datasets (ADR 0031): the dataset's page and its owner's dataset list hear each change; the facts its image links are checked against are evicted (ADR 0043). */
export function registerDatasetsListeners(ctx: AppContext) {
  evictLinkedDatasetsOnChange(ctx);
  const publish = async (event: DatasetMessage, ownerId: string | null, dataset: DatasetState) => {
    const data = { id: dataset.id, status: dataset.status };
    await ctx.bus.publish(topics.dataset(dataset.id), event, data);
    if (ownerId) await ctx.bus.publish(topics.userDatasets(ownerId), event, data);
  };
  ctx.events.on('dataset.created', (e) => publish('dataset.created', e.ownerId, e.data.dataset));
  for (const name of [
    'dataset.updated',
    'dataset.shared',
    'dataset.archived',
    'dataset.uploadStarted',
    'dataset.uploaded',
    'dataset.processingRequested',
  ] as const) {
    ctx.events.on(name, (e) => publish('dataset.updated', e.ownerId, e.data.dataset));
  }
  // Processing ended: the new status (the webhook listener tells receivers).
  ctx.events.on('dataset.processed', (e) => publish('dataset.updated', e.ownerId, e.data.dataset));
  ctx.events.on('dataset.failed', (e) => publish('dataset.updated', e.ownerId, e.data.dataset));
  ctx.events.on('dataset.deleted', (e) => publish('dataset.deleted', e.ownerId, e.data.dataset));
  ctx.events.on('dataset.restored', async (e) => {
    const { id, status } = e.data.dataset;
    if (status !== undefined) await publish('dataset.restored', e.ownerId, { id, status });
    else if (e.ownerId) await ctx.bus.publish(topics.userDatasets(e.ownerId), 'dataset.restored', { id }); // from the trash, which knows only the id
  });
  // Edits (ADR 0037): the dataset's page hears what changed; its owner's list sees the new stats.
  ctx.events.on('dataset.edited', async (e) => {
    const { datasetId: id, seq, kind, counts } = e.data;
    await ctx.bus.publish(topics.dataset(id), 'dataset.edited', { id, seq, kind, counts });
    if (e.ownerId) await ctx.bus.publish(topics.userDatasets(e.ownerId), 'dataset.updated', { id, status: 'Ready' });
  });
  ctx.events.on('dataset.labels.updated', (e) =>
    ctx.bus.publish(topics.dataset(e.data.datasetId), 'dataset.relabelled', { id: e.data.datasetId, imageId: e.data.imageId, revision: e.data.revision }),
  );
  ctx.events.on('dataset.progress', (e) => {
    const { datasetId: id, phase, done, total } = e.data;
    return ctx.bus.publish(topics.dataset(id), 'dataset.progress', { id, phase, done, total });
  });
}
