import { topics, type ModelState } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

type ModelMessage = 'model.created' | 'model.updated' | 'model.deleted' | 'model.restored';

/** Realtime for models (ADR 0031): the model's page and its owner's model list hear each change. */
export function registerModelsListeners(ctx: AppContext) {
  const publish = async (event: ModelMessage, ownerId: string | null, model: ModelState) => {
    const data = { id: model.id, projectId: model.projectId };
    await ctx.bus.publish(topics.model(model.id), event, data);
    if (ownerId) await ctx.bus.publish(topics.userModels(ownerId), event, data);
  };
  ctx.events.on('model.created', (e) => publish('model.created', e.ownerId, e.data.model));
  ctx.events.on('model.updated', (e) => publish('model.updated', e.ownerId, e.data.model));
  ctx.events.on('model.shared', (e) => publish('model.updated', e.ownerId, e.data.model));
  ctx.events.on('model.archived', (e) => publish('model.updated', e.ownerId, e.data.model));
  ctx.events.on('model.moved', (e) => publish('model.updated', e.ownerId, e.data.model));
  ctx.events.on('model.deleted', (e) => publish('model.deleted', e.ownerId, e.data.model));
  ctx.events.on('model.restored', (e) => publish('model.restored', e.ownerId, e.data.model));
}
