import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { sendBlob, sendBuffer } from '../../platform/http/send-blob.js';
import { assertSignedRequest, baseUrlFor } from '../../platform/http/signed-links.js';
import * as training from '../../modules/training/training.service.js';

/**
 * Signed dataset files for both clients (no auth header on downloads): `<id>-<name>.zip` (HUB,
 * hub-protocol §5.9) and `<slug>.ndjson` (Platform, platform-protocol §5.3; its image URLs point at
 * /v1/datasets/:id/images/:imageId/raw). The signature in the URL is the credential.
 */
export async function compatFileRoutes(app: FastifyInstance) {
  const ctx = app.ctx;
  app.route({
    method: ['GET', 'HEAD'],
    url: '/v1/compat/datasets/:datasetId/:file',
    // Signed URLs are credentials: keep them out of the info-level request log.
    logLevel: 'warn',
    schema: { tags: ['compat'], params: z.object({ datasetId: z.string().max(40), file: z.string().max(300) }) },
    handler: async (req, reply) => {
      const access = assertSignedRequest(ctx, req);
      const { datasetId, file } = req.params as { datasetId: string; file: string };
      const found = await training.clientDatasetFile(ctx, datasetId, file, baseUrlFor(ctx, req), access);
      if ('ndjson' in found) return sendBuffer(req, reply, found.ndjson, 'application/x-ndjson');
      if ('zip' in found) {
        // A version's zip is made as it is sent (ADR 0038): same content, same bytes, so a retried download gets the same file.
        reply.header('content-type', 'application/zip');
        if (found.size !== null) reply.header('content-length', found.size);
        if (req.method === 'HEAD') {
          found.zip.destroy();
          return reply.send();
        }
        return reply.send(found.zip);
      }
      return sendBlob(ctx, req, reply, found.zipKey, 'application/zip');
    },
  });
}
