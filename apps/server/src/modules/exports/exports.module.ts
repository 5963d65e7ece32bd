import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { exportsRoutes } from './exports.routes.js';
import { queueOnnxExport, registerExportJobs } from './exports.service.js';

/** Model exports: the `export` agent-job kind and its hooks, the ONNX export after a client run, routes (with the built-in worker). */
export async function register(app: FastifyInstance, ctx: AppContext) {
  registerExportJobs(ctx);
  // A client run ended with weights: its ONNX export is queued at once (Preview needs it).
  ctx.events.on(async (event) => {
    const modelId = (event.data.model as { id?: unknown } | undefined)?.id;
    if (event.name === 'training.completed' && typeof modelId === 'string') await queueOnnxExport(ctx, modelId);
  });
  await app.register(exportsRoutes);
}
