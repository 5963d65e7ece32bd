import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { requireUser } from '../../platform/http/auth-context.js';
import { AppError } from '../../platform/http/errors.js';
import * as training from '../../modules/training/training.service.js';
import { baseUrlFor, verifyCompatUrl } from '../../platform/http/signed-links.js';
import { installLenientUploadSink, type RawUploadRequest } from './lenient-upload.js';
import { presentError } from './platform.presenter.js';
import { modelRefOf, uploadBody, uploadResponse, type UploadBody } from './platform.schemas.js';

const UPLOAD_PREFIX = training.CHECKPOINT_UPLOAD_PREFIX;

/** Checkpoint uploads (platform-protocol §4.6): a signed URL first, then the PUT of the file to it. */
export function platformUploadRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  app.post('/api/webhooks/models/upload', { config: { auth: 'user' }, schema: { tags: ['compat'], body: uploadBody, response: { 200: uploadResponse } } }, async (req) => {
    const { user } = requireUser(req);
    const body = req.body as UploadBody;
    const { uploadUrl, key } = await training.issueCheckpointUpload(ctx, user.id, modelRefOf(body), body, baseUrlFor(ctx, req));
    return { uploadUrl, gcsPath: key, uploadPath: key };
  });

  /** The sink: the signature in the URL is the credential (no auth header on the PUT). */
  async function acceptUpload(target: string, body: Readable, declared: number | undefined): Promise<{ status: number; body: unknown }> {
    const verdict = verifyCompatUrl(ctx, target);
    if (verdict !== 'ok') {
      body.resume();
      return { status: verdict === 'expired' ? 410 : 403, body: { error: verdict === 'expired' ? 'This upload link has expired' : 'This upload link is invalid' } };
    }
    try {
      const stored = await training.receiveCheckpointUpload(ctx, target.split('?', 1)[0]!, body, declared);
      return stored ? { status: 200, body: { ok: true, bytes: stored.bytes } } : { status: 404, body: { error: 'Model not found' } };
    } catch (err) {
      if (err instanceof AppError) return { status: err.statusCode, body: presentError(err) };
      throw err;
    }
  }

  // Well-formed PUTs (and app.inject) come through Fastify; see lenient-upload.ts for the quirky ones.
  // logLevel: the signed upload URL is a credential, kept out of the info-level request log.
  app.put(`${UPLOAD_PREFIX}*`, { logLevel: 'warn' }, async (req: FastifyRequest, reply: FastifyReply) => {
    const declared = req.headers['content-length'] !== undefined && req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : undefined;
    const res = await acceptUpload(req.url, req.raw, declared);
    return reply.status(res.status).send(res.body);
  });
  const sink = installLenientUploadSink(
    app.server,
    UPLOAD_PREFIX,
    async (raw: RawUploadRequest) => {
      if (raw.method !== 'PUT') {
        raw.body.resume();
        return { status: 400, body: { error: 'Use PUT' } };
      }
      return acceptUpload(raw.target, raw.body, raw.contentLength);
    },
    app.log,
  );
  app.addHook('preClose', async () => sink.closePending());
}
