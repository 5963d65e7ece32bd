import { Worker } from 'node:worker_threads';
import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isEnabled } from '../flags/flags.service.js';
import { planLimits } from '../billing/billing.plans.js';
import { inferencePolicy } from './inference.policy.js';
import { inferenceRepository, type EndpointRow } from './inference.repository.js';
import { InferenceError } from './errors.js';
import { onnxPathFor, toAppError, type PredictParams } from './inference.service.js';
import type { Prediction } from './types.js';

class EndpointWorker {
  private worker: Worker;
  private seq = 0;
  private pending = new Map<number, { resolve: (p: Prediction) => void; reject: (e: Error) => void }>();
  readonly ready: Promise<void>;

  constructor(modelPath: string) {
    // From the sources, the .mjs bootstrap registers tsx inside the worker (loaders are per thread);
    // the compiled server (scripts/start.mjs) has the worker bundled beside it as endpoint.worker.js.
    const compiled = !import.meta.url.endsWith('.ts');
    this.worker = new Worker(new URL(compiled ? './endpoint.worker.js' : './endpoint.worker.mjs', import.meta.url), { workerData: { modelPath } });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (m: { type: string; id?: number; result?: Prediction; code?: string; message?: string }) => {
        if (m.type === 'ready') return resolve();
        if (m.type === 'failed') return reject(new AppError(422, ErrorCode.UnsupportedModel, m.message ?? 'The model could not be loaded'));
        const p = this.pending.get(m.id!);
        if (!p) return;
        this.pending.delete(m.id!);
        if (m.type === 'result') p.resolve(m.result!);
        else p.reject(toAppError(new InferenceError((m.code ?? 'inference_failed') as 'inference_failed', m.message ?? 'failed')));
      });
      this.worker.on('error', (err) => {
        reject(err);
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      });
    });
  }

  predict(image: Buffer, params: PredictParams): Promise<Prediction> {
    const id = ++this.seq;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ id, image: new Uint8Array(image), params });
    });
  }

  async stop() {
    await this.worker.terminate();
  }
}

/** Dedicated inference endpoints (pro + flag): one warm, isolated worker per model. */
export class EndpointManager {
  private workers = new Map<string, EndpointWorker>();

  constructor(private readonly ctx: AppContext) {}

  private async assertAllowed(user: { plan: string }) {
    if (!(await planLimits(this.ctx, user.plan)).dedicatedInference)
      throw new AppError(403, ErrorCode.PlanRequired, 'Dedicated inference needs the Pro or Enterprise plan');
    if (!(await isEnabled(this.ctx, 'dedicatedInference')))
      throw new AppError(403, ErrorCode.FeatureDisabled, 'Dedicated inference is not enabled on this server');
  }

  async live(modelId: string) {
    return inferenceRepository.liveEndpoint(this.ctx.db, modelId);
  }

  /** The model the caller may run a dedicated endpoint for: 404 if not readable, 403 if not theirs to change. */
  private async ownedModel(userId: string, modelId: string) {
    const row = await inferenceRepository.modelWithProject(this.ctx.db, modelId);
    return inferencePolicy.manage(this.ctx, userId, row?.model, row?.project ?? null);
  }

  /** The model's live endpoint when the caller may use it, else null. */
  async liveFor(user: { id: string }, modelId: string) {
    const row = await this.live(modelId);
    return row && (await inferencePolicy.mayUseEndpoint(this.ctx, user.id, row)) ? row : null;
  }

  async start(user: { id: string; plan: string }, modelId: string): Promise<EndpointRow> {
    await this.assertAllowed(user);
    const model = await this.ownedModel(user.id, modelId);
    const existing = await this.live(model.id);
    if (existing) return existing;
    const modelPath = await onnxPathFor(this.ctx, model);
    const row = await inferenceRepository.insertEndpoint(this.ctx.db, { id: newId(), modelId: model.id, userId: user.id, status: 'starting' });
    await this.boot(row, modelPath);
    return (await inferenceRepository.endpoint(this.ctx.db, row.id))!;
  }

  private async boot(row: EndpointRow, modelPath: string) {
    const worker = new EndpointWorker(modelPath);
    this.workers.set(row.id, worker);
    try {
      await worker.ready;
      await inferenceRepository.updateEndpoint(this.ctx.db, row.id, { status: 'running', error: null, updatedAt: this.ctx.clock.now() });
    } catch (err) {
      this.workers.delete(row.id);
      await worker.stop();
      await inferenceRepository.updateEndpoint(this.ctx.db, row.id, { status: 'failed', error: (err as Error).message, stoppedAt: this.ctx.clock.now() });
      throw err;
    }
    await this.ctx.events.emit('endpoint.started', row.userId, { endpointId: row.id, modelId: row.modelId });
  }

  async stop(user: { id: string }, modelId: string) {
    await this.ownedModel(user.id, modelId);
    const row = await this.live(modelId);
    if (!row) return;
    await this.workers.get(row.id)?.stop();
    this.workers.delete(row.id);
    await inferenceRepository.updateEndpoint(this.ctx.db, row.id, { status: 'stopped', stoppedAt: this.ctx.clock.now(), updatedAt: this.ctx.clock.now() });
    await this.ctx.events.emit('endpoint.stopped', row.userId, { endpointId: row.id, modelId });
  }

  /** Runs on the endpoint's worker; an instance that does not hold it yet starts one (warm after the first call). */
  async predict(user: { id: string; plan: string }, endpointId: string, image: Buffer, params: PredictParams) {
    const row = await inferenceRepository.endpoint(this.ctx.db, endpointId);
    if (!row || row.stoppedAt) throw errors.notFound('Endpoint');
    await inferencePolicy.useEndpoint(this.ctx, user.id, row);
    await this.assertAllowed(user);
    let worker = this.workers.get(row.id);
    const model = worker ? (await inferenceRepository.modelWithProject(this.ctx.db, row.modelId))?.model : await this.ownedModel(user.id, row.modelId);
    if (!worker) {
      await this.boot(row, await onnxPathFor(this.ctx, model!));
      worker = this.workers.get(row.id)!;
    }
    await worker.ready;
    return { row, model: model!, prediction: await worker.predict(image, params) };
  }

  async close() {
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }
}
