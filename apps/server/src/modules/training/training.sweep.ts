import type { FastifyInstance } from 'fastify';
import { markStaleRuns } from './training.runs.js';

/** The run lifecycle's sweep (ADR 0020): a tenth of the shortest window, at most a minute, so Timeout shows soon after it is due. */
const sweepMs = (w: { startWindowMs: number; silenceWindowMs: number }) =>
  Math.max(500, Math.min(60_000, Math.floor(Math.min(w.startWindowMs, w.silenceWindowMs) / 10)));

/** Runs the sweep of silent runs while the app is up (when this instance runs jobs). */
export function scheduleStaleSweep(app: FastifyInstance) {
  const ctx = app.ctx;
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    if (!ctx.config.jobsEnabled) return;
    timer = setInterval(
      () => void markStaleRuns(ctx).catch((err: unknown) => app.log.warn({ err }, 'stale training sweep failed')),
      sweepMs(ctx.config.training),
    );
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
