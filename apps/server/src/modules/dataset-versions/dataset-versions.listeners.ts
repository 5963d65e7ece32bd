import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { datasetQueries } from '../datasets/index.js';
import { saveAutoVersion } from './dataset-versions.service.js';

/**
 * Dataset versions' reactions (ADR 0038): realtime on the dataset's topic for each saved, deleted or
 * restored version; version 1 when processing first reaches Ready, and a new version each time a
 * dataset is processed again (a Roboflow re-sync replaces its images: a new version, never a changed one).
 */
export function registerDatasetVersionsListeners(ctx: AppContext) {
  ctx.events.on('dataset.version.saved', (e) =>
    ctx.bus.publish(topics.dataset(e.data.dataset.id), 'version.saved', { id: e.data.dataset.id, number: e.data.version.number }),
  );
  ctx.events.on('dataset.version.deleted', (e) =>
    ctx.bus.publish(topics.dataset(e.data.dataset.id), 'version.deleted', { id: e.data.dataset.id, number: e.data.version.number }),
  );
  ctx.events.on('dataset.version.restored', (e) =>
    ctx.bus.publish(topics.dataset(e.data.dataset.id), 'version.saved', { id: e.data.dataset.id, number: e.data.version.number }),
  );
  ctx.events.on('dataset.processed', async (e) => {
    const dataset = await datasetQueries.byId(ctx.db, e.data.dataset.id);
    if (!dataset || dataset.deletedAt || !dataset.processedAt) return;
    // Processed again (a new archive): the older versions keep their rows (ADR 0038), the new state is a new version.
    const note = (hasVersions: boolean) => (dataset.provider === 'roboflow' ? 'Synced from Roboflow' : hasVersions ? 'Processed again' : 'Version 1');
    await saveAutoVersion(ctx, dataset, note, { always: dataset.provider === 'roboflow' });
  });
}
