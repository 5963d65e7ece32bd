import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

/** Realtime for training (ADR 0031): the model's page (and, for status changes, its owner's model list) hears each step of a run. */
export function registerTrainingListeners(ctx: AppContext) {
  ctx.events.on('training.runChanged', async (e) => {
    const data = { id: e.data.model.id, projectId: e.data.model.projectId };
    await ctx.bus.publish(topics.model(data.id), 'model.updated', data);
    if (e.ownerId) await ctx.bus.publish(topics.userModels(e.ownerId), 'model.updated', data);
  });
  ctx.events.on('training.metricsRecorded', (e) =>
    ctx.bus.publish(topics.model(e.data.model.id), 'model.metrics', {
      id: e.data.model.id,
      projectId: e.data.model.projectId,
      epochs: e.data.epochs.slice(0, 50),
      final: e.data.final,
    }),
  );
  ctx.events.on('training.consoleAppended', (e) =>
    ctx.bus.publish(topics.model(e.data.model.id), 'model.console', { id: e.data.model.id, projectId: e.data.model.projectId, chunkId: e.data.chunkId }),
  );
}
