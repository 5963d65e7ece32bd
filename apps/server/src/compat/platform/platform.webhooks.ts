import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { requireUser } from '../../platform/http/auth-context.js';
import { errors } from '../../platform/http/errors.js';
import * as training from '../../modules/training/training.service.js';
import { runArgsOf, storedKind } from './platform.formats.js';
import {
  checkpointData,
  completeData,
  consoleData,
  envelope,
  epochData,
  modelRefOf,
  parseEventData,
  startedData,
  webhookResponse,
  type Envelope,
} from './platform.schemas.js';
import type { z } from 'zod';

type EventHandler = (userId: string, body: Envelope) => Promise<Record<string, unknown>>;

/**
 * `POST /api/webhooks/training/metrics` (platform-protocol §4.2): one envelope, five stored events.
 * Each event handler checks its payload, translates it into the training lifecycle's terms
 * (training.service) and shapes the answer.
 */
export function platformWebhookRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  const events: Record<string, EventHandler> = {
    training_started: async (userId, body) => {
      const data = parseEventData(startedData, body.data, 'training_started');
      const { model, runId } = await training.startRun(ctx, userId, 'platform', runStartOf(body, data));
      return { modelId: model.id, runId, modelSlug: model.slug, cancelled: false };
    },
    console_output: async (userId, body) => {
      await training.recordConsole(ctx, userId, modelRefOf(body), 'platform', parseEventData(consoleData, body.data, 'console_output'));
      return { ok: true };
    },
    epoch_end: async (userId, body) => {
      const data = parseEventData(epochData, body.data, 'epoch_end');
      const metrics = { ...(data.metrics ?? {}), ...(typeof data.fitness === 'number' ? { fitness: data.fitness } : {}) };
      const extra = { ...(data.system ? { system: data.system } : {}), ...(data.modelInfo ? { modelInfo: data.modelInfo } : {}) };
      // The client learns of a Stop only here; it keeps answering true until the run ends (traces README §4).
      const { cancelled } = await training.recordEpochs(ctx, userId, modelRefOf(body), 'platform', [{ epoch: data.epoch, metrics }], extra);
      return { ok: true, cancelled };
    },
    checkpoint_saved: async (userId, body) => {
      const { modelPath } = await checkpointSaved(ctx, userId, modelRefOf(body), parseEventData(checkpointData, body.data, 'checkpoint_saved'));
      return { ok: true, modelPath };
    },
    training_complete: async (userId, body) => {
      await trainingComplete(ctx, userId, modelRefOf(body), parseEventData(completeData, body.data, 'training_complete'));
      return { ok: true };
    },
  };

  // training_progress, system_metrics, training_failed are cloud-worker events (§4.2): accepted for the caller's model, not stored.
  const otherEvent: EventHandler = async (userId, body) => {
    await training.resolveModel(ctx, userId, modelRefOf(body));
    if (!/^[a-z_]{1,64}$/.test(body.event)) throw errors.validation(`Unknown event ${body.event}`);
    return body.event === 'training_failed' ? { ok: true } : { ok: true, ignored: true };
  };

  app.post(
    '/api/webhooks/training/metrics',
    { config: { auth: 'user' }, bodyLimit: 32 * 1024 * 1024, schema: { tags: ['compat'], body: envelope, response: { 200: webhookResponse } } },
    async (req) => {
      const body = req.body as Envelope;
      const handle = Object.hasOwn(events, body.event) ? events[body.event]! : otherEvent;
      return handle(requireUser(req).user.id, body);
    },
  );
}

/** `training_started` in the lifecycle's terms: project and run name from the envelope or the train args, what the args name (`ul://` data and weights). */
function runStartOf(body: Envelope, data: z.infer<typeof startedData>): training.RunStart {
  const args = (data.trainArgs ?? {}) as Record<string, unknown>;
  const project = body.project ?? (typeof args.project === 'string' ? args.project : null);
  if (!project || project === 'None') throw errors.validation('project is required');
  const { dataArg, datasetRef, architecture, parent, task } = runArgsOf(args);
  const epochs = Number(data.epochs ?? args.epochs);
  return {
    project,
    name: body.name ?? (typeof args.name === 'string' ? args.name : null) ?? 'train',
    trainArgs: args,
    epochsTotal: Number.isInteger(epochs) && epochs > 0 ? epochs : null,
    environment: data.environment ?? null,
    dataset: datasetRef,
    dataArg,
    architecture,
    parent,
    task,
  };
}

/** `checkpoint_saved`: the upload at modelPath (a key this model's upload URL handed out) becomes the model's file. */
async function checkpointSaved(ctx: AppContext, userId: string, ref: training.ModelRef, data: { runId?: string | null; modelPath?: string | null }) {
  const model = await training.resolveModel(ctx, userId, ref);
  const run = await training.runOf(ctx, model.id);
  if (data.runId && run?.runId && data.runId !== run.runId) throw errors.validation('runId does not belong to this model');
  if (!data.modelPath) throw errors.validation('checkpoint_saved: modelPath is required');
  await training.promoteStored(ctx, model, data.modelPath, (name) => storedKind(model, name));
  await training.report(ctx, model, 'platform');
  return { modelPath: data.modelPath };
}

/** `training_complete`: the final weights (when they arrived) are promoted and the run ends. */
async function trainingComplete(ctx: AppContext, userId: string, ref: training.ModelRef, data: z.infer<typeof completeData>) {
  const model = await training.resolveModel(ctx, userId, ref);
  const results = data.results ?? {};
  if (results.modelPath)
    await training
      .promoteStored(ctx, model, results.modelPath, (name) => storedKind(model, name))
      .catch((err: unknown) => ctx.log.warn({ err, modelId: model.id }, 'final modelPath not promoted'));
  const { metrics: finalMetrics, ...rest } = results;
  await training.finish(ctx, model, 'platform', {
    finalMetrics: finalMetrics ?? null,
    names: data.classNames ?? null,
    extra: {
      results: rest,
      plots: data.plots ?? null,
      ...(typeof results.bestEpoch === 'number' ? { bestEpoch: results.bestEpoch } : {}),
      ...(typeof results.bestFitness === 'number' ? { bestFitness: results.bestFitness } : {}),
    },
  });
}
