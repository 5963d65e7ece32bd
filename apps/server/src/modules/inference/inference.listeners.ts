import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

/** Realtime for dedicated endpoints (ADR 0031): the model's page hears its endpoint start or stop. */
export function registerInferenceListeners(ctx: AppContext) {
  ctx.events.on('endpoint.started', (e) => ctx.bus.publish(topics.model(e.data.modelId), 'endpoint.updated', { id: e.data.endpointId }));
  ctx.events.on('endpoint.stopped', (e) => ctx.bus.publish(topics.model(e.data.modelId), 'endpoint.updated', { id: e.data.endpointId }));
}
