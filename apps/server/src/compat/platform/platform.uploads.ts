import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { requireUser } from '../../platform/http/auth-context.js';
import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import * as training from '../../modules/training/training.service.js';
import { baseUrlFor, signCompatUrl, verifyCompatUrl } from '../../platform/http/signed-links.js';
import { installLenientUploadSink, type RawUploadRequest } from './lenient-upload.js';
import { CHECKPOINT_UPLOAD_PREFIX as UPLOAD_PREFIX, parseUploadPath, platformStoredName, storedKind, uploadPath } from './platform.formats.js';
import { presentError } from './platform.presenter.js';
import { modelRefOf, uploadBody, uploadResponse, type UploadBody } from './platform.schemas.js';

const UPLOAD_URL_TTL_MS = 24 * 3_600_000;

/**
 * Step 1 (platform-protocol §4.6): a signed PUT URL for a new, versioned blob of the model. Clients
 * without a runId never send checkpoint_saved: their upload is promoted when it lands (mode `a`);
 * the others wait for checkpoint_saved (mode `m`). The key is what the client echoes as modelPath.
 */
export async function issueCheckpointUpload(
  ctx: AppContext,
  userId: string,
  ref: training.ModelRef,
  input: { filename: string; runId?: string | null },
  baseUrl: string,
) {
  const model = await training.resolveModel(ctx, userId, ref);
  const uploadId = newId();
  const storedName = platformStoredName(model.slug, input.filename, uploadId);
  if (!storedName) throw errors.validation('filename: use letters, digits, dot, dash and underscore');
  const path = uploadPath({ modelId: model.id, uploadId, mode: input.runId ? 'm' : 'a', storedName });
  return { uploadUrl: signCompatUrl(ctx, baseUrl, path, UPLOAD_URL_TTL_MS), key: training.modelBlobKey(model, storedName) };
}

/**
 * Step 2: the body of a PUT to a path issueCheckpointUpload signed (the caller checked the
 * signature). Streams into storage within the owner's quota; null when the model is gone. An
 * interrupted body stores nothing (atomic put); the client's retry sends it again.
 */
export async function receiveCheckpointUpload(
  ctx: AppContext,
  path: string,
  body: Readable,
  declaredBytes: number | undefined,
): Promise<{ bytes: number } | null> {
  const { modelId, mode, storedName } = parseUploadPath(path);
  const found = await training.modelForSignedUpload(ctx, modelId);
  if (!found || !storedName) {
    body.resume();
    return null;
  }
  const { model, owner } = found;
  const kind = storedKind(model, storedName);
  try {
    const { key, bytes, settle } = await training.receiveCheckpoint(ctx, owner, model, { kind, name: storedName }, body, {
      declaredBytes,
      settleLater: mode === 'a',
    });
    if (mode === 'a') await training.promoteFile(ctx, model, { kind, key, name: storedName, bytes, epoch: null }).finally(settle);
    return { bytes };
  } catch (err) {
    if (err instanceof AppError) throw err;
    ctx.log.warn({ err, modelId: model.id }, 'checkpoint upload interrupted');
    throw new AppError(400, ErrorCode.UploadInterrupted, 'The upload did not complete; send it again');
  }
}

/** Checkpoint uploads (platform-protocol §4.6): a signed URL first, then the PUT of the file to it. */
export function platformUploadRoutes(app: FastifyInstance) {
  const ctx = app.ctx;

  app.post(
    '/api/webhooks/models/upload',
    { config: { auth: 'user' }, schema: { tags: ['compat'], body: uploadBody, response: { 200: uploadResponse } } },
    async (req) => {
      const { user } = requireUser(req);
      const body = req.body as UploadBody;
      const { uploadUrl, key } = await issueCheckpointUpload(ctx, user.id, modelRefOf(body), body, baseUrlFor(ctx, req));
      return { uploadUrl, gcsPath: key, uploadPath: key };
    },
  );

  /** The sink: the signature in the URL is the credential (no auth header on the PUT). */
  async function acceptUpload(target: string, body: Readable, declared: number | undefined): Promise<{ status: number; body: unknown }> {
    const verdict = verifyCompatUrl(ctx, target);
    if (verdict !== 'ok') {
      body.resume();
      return {
        status: verdict === 'expired' ? 410 : 403,
        body: { error: verdict === 'expired' ? 'This upload link has expired' : 'This upload link is invalid' },
      };
    }
    try {
      const stored = await receiveCheckpointUpload(ctx, target.split('?', 1)[0]!, body, declared);
      return stored ? { status: 200, body: { ok: true, bytes: stored.bytes } } : { status: 404, body: { error: 'Model not found' } };
    } catch (err) {
      if (err instanceof AppError) return { status: err.statusCode, body: presentError(err) };
      throw err;
    }
  }

  // Well-formed PUTs (and app.inject) come through Fastify; see lenient-upload.ts for the quirky ones.
  // logLevel: the signed upload URL is a credential, kept out of the info-level request log.
  app.put(`${UPLOAD_PREFIX}*`, { logLevel: 'warn' }, async (req: FastifyRequest, reply: FastifyReply) => {
    const declared =
      req.headers['content-length'] !== undefined && req.headers['transfer-encoding'] === undefined ? Number(req.headers['content-length']) : undefined;
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
