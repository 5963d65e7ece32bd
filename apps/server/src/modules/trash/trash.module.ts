import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { trashRoutes } from './trash.routes.js';
import { registerPurgeJob, schedulePurge } from './trash.service.js';

/** Trash: routes, and the purge job (30 days) scheduled every 10 minutes, deduplicated per hour. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerPurgeJob(ctx);
  let timer: NodeJS.Timeout | null = null;
  app.addHook('onReady', async () => {
    if (!ctx.config.jobsEnabled) return;
    await schedulePurge(ctx);
    timer = setInterval(() => void schedulePurge(ctx).catch((err) => app.log.warn({ err }, 'purge scheduling failed')), 600_000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
  await app.register(trashRoutes);
}
