import { topics } from '@sightline/contracts';
import type { AppContext } from '../../context.js';

/** Realtime for evaluations (ADR 0031, ADR 0035): the model's watchers see status and progress. */
export function registerEvaluationListeners(ctx: AppContext) {
  const on = ctx.events.on.bind(ctx.events);
  on('evaluation.updated', (e) =>
    ctx.bus.publish(topics.model(e.data.modelId), 'evaluation.updated', { id: e.data.evaluationId, modelId: e.data.modelId, status: e.data.status }),
  );
  on('evaluation.progress', (e) =>
    ctx.bus.publish(topics.model(e.data.modelId), 'evaluation.progress', {
      id: e.data.evaluationId,
      modelId: e.data.modelId,
      done: e.data.done,
      total: e.data.total,
    }),
  );
}
