import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

/** Realtime for labelling (ADR 0031, ADR 0039): the dataset's watchers see jobs move, labels and suggestions change, and the class counts. */
export function registerLabellingListeners(ctx: AppContext) {
  const on = ctx.events.on.bind(ctx.events);
  on('dataset.prelabel.updated', (e) =>
    ctx.bus.publish(topics.dataset(e.data.datasetId), 'prelabel.progress', {
      id: e.data.datasetId,
      jobId: e.data.jobId,
      status: e.data.status,
      done: e.data.done,
      total: e.data.total,
    }),
  );
  on('dataset.suggestions.accepted', async (e) => {
    const topic = topics.dataset(e.data.datasetId);
    // One message per image while they are few (the editor updates that image); one "many changed" beyond.
    if (e.data.images.length <= 20)
      for (const i of e.data.images)
        await ctx.bus.publish(topic, 'labels.updated', { id: e.data.datasetId, imageId: i.imageId, revision: i.revision, counts: e.data.counts });
    else await ctx.bus.publish(topic, 'labels.updated', { id: e.data.datasetId, imageId: null, revision: null, counts: e.data.counts });
    await ctx.bus.publish(topic, 'suggestions.updated', {
      id: e.data.datasetId,
      imageIds: e.data.images.length <= 100 ? e.data.images.map((i) => i.imageId) : null,
    });
  });
  on('dataset.suggestions.rejected', (e) =>
    ctx.bus.publish(topics.dataset(e.data.datasetId), 'suggestions.updated', {
      id: e.data.datasetId,
      imageIds: e.data.imageIds.length <= 100 ? e.data.imageIds : null,
    }),
  );
}
