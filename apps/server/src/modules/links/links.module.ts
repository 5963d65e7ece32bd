import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { blobDownloadRoutes } from '../../platform/http/blob-download.routes.js';
import { blobLinkAccess } from './links.service.js';

/** Signed blob links (ADR 0014, 0023): the download route, each link re-checked against its item and holder. */
export async function register(app: FastifyInstance, ctx: AppContext) {
  await app.register(blobDownloadRoutes, {
    store: ctx.blobs,
    secret: ctx.secret,
    now: () => ctx.clock.now(),
    checkAccess: (key, access) => blobLinkAccess(ctx, key, access),
  });
}
