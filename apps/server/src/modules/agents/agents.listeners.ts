import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { modelQueries } from '../models/index.js';

/** Realtime for agent jobs (ADR 0031): the model's page hears that its cloud run or an export changed (small payload; it refetches). */
export function registerAgentsListeners(ctx: AppContext) {
  ctx.events.on('model.jobsChanged', async (e) => {
    const model = await modelQueries.byId(ctx.db, e.data.modelId);
    if (model) await ctx.bus.publish(topics.model(model.id), 'model.updated', { id: model.id, projectId: model.projectId });
  });
}
