import type { AppContext } from '../../context.js';

/** Pages open on the model refetch its cloud run and exports (ADR 0031: agents.listeners.ts sends the realtime message). */
export async function publishModelChange(ctx: AppContext, modelId: string) {
  await ctx.events.emit('model.jobsChanged', null, { modelId });
}
