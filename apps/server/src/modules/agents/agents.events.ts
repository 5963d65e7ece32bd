import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { modelsRepository } from '../models/models.repository.js';

/** Pages open on the model refetch its cloud run and exports (small payloads; the bus caps NOTIFY). */
export async function publishModelChange(ctx: AppContext, modelId: string) {
  const model = await modelsRepository.byId(ctx.db, modelId);
  if (model) await ctx.bus.publish(topics.model(model.id), 'model.updated', { id: model.id, projectId: model.projectId });
}
