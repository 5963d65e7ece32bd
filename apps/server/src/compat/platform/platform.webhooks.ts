import type { FastifyInstance } from 'fastify';
import { requireUser } from '../../platform/http/auth-context.js';
import { errors } from '../../platform/http/errors.js';
import * as training from '../../modules/training/training.service.js';
import { checkpointData, completeData, consoleData, envelope, epochData, modelRefOf, parseEventData, startedData, webhookResponse, type Envelope } from './platform.schemas.js';

type EventHandler = (userId: string, body: Envelope) => Promise<Record<string, unknown>>;

/**
 * `POST /api/webhooks/training/metrics` (platform-protocol §4.2): one envelope, five stored events.
 * Each event handler checks its payload, makes one training.service call and shapes the answer.
 */
export function platformWebhookRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  const events: Record<string, EventHandler> = {
    training_started: async (userId, body) => {
      const data = parseEventData(startedData, body.data, 'training_started');
      const input = { project: body.project, name: body.name, trainArgs: (data.trainArgs ?? {}) as Record<string, unknown>, epochs: data.epochs, environment: data.environment };
      const { model, runId } = await training.startRun(ctx, userId, input);
      return { modelId: model.id, runId, modelSlug: model.slug, cancelled: false };
    },
    console_output: async (userId, body) => {
      await training.reportConsole(ctx, userId, modelRefOf(body), parseEventData(consoleData, body.data, 'console_output'));
      return { ok: true };
    },
    epoch_end: async (userId, body) => {
      const data = parseEventData(epochData, body.data, 'epoch_end');
      const metrics = { ...(data.metrics ?? {}), ...(typeof data.fitness === 'number' ? { fitness: data.fitness } : {}) };
      const extra = { ...(data.system ? { system: data.system } : {}), ...(data.modelInfo ? { modelInfo: data.modelInfo } : {}) };
      // The client learns of a Stop only here; it keeps answering true until the run ends (traces README §4).
      const { cancelled } = await training.reportMetrics(ctx, userId, modelRefOf(body), 'platform', [{ epoch: data.epoch, metrics }], extra);
      return { ok: true, cancelled };
    },
    checkpoint_saved: async (userId, body) => {
      const { modelPath } = await training.reportCheckpoint(ctx, userId, modelRefOf(body), parseEventData(checkpointData, body.data, 'checkpoint_saved'));
      return { ok: true, modelPath };
    },
    training_complete: async (userId, body) => {
      await training.reportEnd(ctx, userId, modelRefOf(body), parseEventData(completeData, body.data, 'training_complete'));
      return { ok: true };
    },
  };

  // training_progress, system_metrics, training_failed are cloud-worker events (§4.2): accepted for the caller's model, not stored.
  const otherEvent: EventHandler = async (userId, body) => {
    await training.acknowledgeEvent(ctx, userId, modelRefOf(body));
    if (!/^[a-z_]{1,64}$/.test(body.event)) throw errors.validation(`Unknown event ${body.event}`);
    return body.event === 'training_failed' ? { ok: true } : { ok: true, ignored: true };
  };

  app.post('/api/webhooks/training/metrics', { config: { auth: 'user' }, bodyLimit: 32 * 1024 * 1024, schema: { tags: ['compat'], body: envelope, response: { 200: webhookResponse } } }, async (req) => {
    const body = req.body as Envelope;
    const handle = Object.hasOwn(events, body.event) ? events[body.event]! : otherEvent;
    return handle(requireUser(req).user.id, body);
  });
}
