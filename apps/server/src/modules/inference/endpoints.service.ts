import { Worker } from 'node:worker_threads';
import { and, eq, isNull } from 'drizzle-orm';
import type { AppContext } from '../../context.js';
import { inferenceEndpoints } from '../../platform/db/schema.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { isEnabled } from '../flags/flags.service.js';
import { ownedModel } from '../models/models.service.js';
import { InferenceError } from './errors.js';
import { onnxPathFor, toAppError, type PredictParams } from './inference.service.js';
import type { Prediction } from './types.js';

type EndpointRow = typeof inferenceEndpoints.$inferSelect;

class EndpointWorker {
  private worker: Worker;
  private seq = 0;
  private pending = new Map<number, { resolve: (p: Prediction) => void; reject: (e: Error) => void }>();
  readonly ready: Promise<void>;

  constructor(modelPath: string) {
    // The .mjs bootstrap registers tsx inside the worker (loaders are per thread).
    this.worker = new Worker(new URL('./endpoint.worker.mjs', import.meta.url), { workerData: { modelPath } });
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (m: { type: string; id?: number; result?: Prediction; code?: string; message?: string }) => {
        if (m.type === 'ready') return resolve();
        if (m.type === 'failed') return reject(new AppError(422, 'error/unsupported-model', m.message ?? 'The model could not be loaded'));
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
    if (user.plan !== 'pro' && user.plan !== 'enterprise') throw new AppError(403, 'error/plan-required', 'Dedicated inference needs the Pro or Enterprise plan');
    if (!(await isEnabled(this.ctx, 'dedicatedInference'))) throw new AppError(403, 'error/feature-disabled', 'Dedicated inference is not enabled on this server');
  }

  async live(modelId: string) {
    return (await this.ctx.db.select().from(inferenceEndpoints).where(and(eq(inferenceEndpoints.modelId, modelId), isNull(inferenceEndpoints.stoppedAt))))[0] ?? null;
  }

  async start(user: { id: string; plan: string }, modelId: string): Promise<EndpointRow> {
    await this.assertAllowed(user);
    const model = await ownedModel(this.ctx, user.id, modelId);
    const existing = await this.live(model.id);
    if (existing) return existing;
    const modelPath = await onnxPathFor(this.ctx, model);
    const [row] = await this.ctx.db.insert(inferenceEndpoints).values({ id: newId(), modelId: model.id, userId: user.id, status: 'starting' }).returning();
    await this.boot(row!, modelPath);
    return (await this.ctx.db.select().from(inferenceEndpoints).where(eq(inferenceEndpoints.id, row!.id)))[0]!;
  }

  private async boot(row: EndpointRow, modelPath: string) {
    const worker = new EndpointWorker(modelPath);
    this.workers.set(row.id, worker);
    try {
      await worker.ready;
      await this.ctx.db.update(inferenceEndpoints).set({ status: 'running', error: null, updatedAt: this.ctx.clock.now() }).where(eq(inferenceEndpoints.id, row.id));
    } catch (err) {
      this.workers.delete(row.id);
      await worker.stop();
      await this.ctx.db.update(inferenceEndpoints).set({ status: 'failed', error: (err as Error).message, stoppedAt: this.ctx.clock.now() }).where(eq(inferenceEndpoints.id, row.id));
      throw err;
    }
    await this.ctx.bus.publish(`model:${row.modelId}`, 'endpoint.updated', { id: row.id });
  }

  async stop(user: { id: string }, modelId: string) {
    await ownedModel(this.ctx, user.id, modelId);
    const row = await this.live(modelId);
    if (!row) return;
    await this.workers.get(row.id)?.stop();
    this.workers.delete(row.id);
    await this.ctx.db.update(inferenceEndpoints).set({ status: 'stopped', stoppedAt: this.ctx.clock.now(), updatedAt: this.ctx.clock.now() }).where(eq(inferenceEndpoints.id, row.id));
    await this.ctx.bus.publish(`model:${modelId}`, 'endpoint.updated', { id: row.id });
  }

  /** Runs on the endpoint's worker; an instance that does not hold it yet starts one (warm after the first call). */
  async predict(user: { id: string; plan: string }, endpointId: string, image: Buffer, params: PredictParams) {
    const row = (await this.ctx.db.select().from(inferenceEndpoints).where(eq(inferenceEndpoints.id, endpointId)))[0];
    if (!row || row.stoppedAt || row.userId !== user.id) throw errors.notFound('Endpoint');
    await this.assertAllowed(user);
    let worker = this.workers.get(row.id);
    if (!worker) {
      const model = await ownedModel(this.ctx, user.id, row.modelId);
      await this.boot(row, await onnxPathFor(this.ctx, model));
      worker = this.workers.get(row.id)!;
    }
    await worker.ready;
    return { row, prediction: await worker.predict(image, params) };
  }

  async close() {
    await Promise.all([...this.workers.values()].map((w) => w.stop()));
    this.workers.clear();
  }
}
