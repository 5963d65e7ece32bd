import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FileStore } from '@tus/file-store';
import { Server, EVENTS } from '@tus/server';
import { ErrorCode } from '@sightline/contracts';
import { blobKeys } from '../storage/blob-keys.js';
import { BlobTusStore } from './blob-tus-store.js';
import { uploadsRepository } from './uploads.repository.js';
import { verifyUploadToken } from './upload-token.js';

export const TUS_PATH = '/v1/uploads/tus';

export interface FinishedUpload {
  id: string;
  uid: string;
  path: string;
  filename: string;
  bytes: number;
  /** The upload's bytes (from the local folder, or joined from the blob store's chunks). */
  open(): Readable;
}

interface TusOptions {
  /** Called once the last byte arrived: move the file where it belongs. Throwing fails the upload. */
  onFinished(upload: FinishedUpload): Promise<void>;
  /**
   * Reserves the upload's bytes for the user, or refreshes the reservation it holds (ADR 0014): throws
   * an InsufficientStorageError (403) with details {available, required} when they do not fit.
   */
  reserve(uid: string, uploadId: string, bytes: number): Promise<void>;
  /** Ends the reservation: the upload finished (its bytes now count through the dataset), failed or was terminated. */
  release(uploadId: string): Promise<void>;
}

type StorageError = { statusCode?: number; code?: string; message: string; details?: unknown };
const isStorageError = (err: unknown): err is StorageError => (err as StorageError | null)?.code === ErrorCode.InsufficientStorage;

class TusHttpError extends Error {
  constructor(
    public readonly status_code: number,
    public readonly body: string,
  ) {
    super(body);
  }
}
const tusError = (status: number, code: string, message: string, details?: unknown) =>
  new TusHttpError(status, JSON.stringify({ error: { code, message, ...(details ? { details } : {}) } }));

/**
 * Resumable uploads (tus 1.0) behind the upload token: the browser asks POST /v1/uploads/token
 * for a grant (path, bytes), then sends the bytes with tus-js-client; an interrupted upload resumes
 * at its offset, also after a server restart (the partial file and its metadata live on disk).
 */
/**
 * FileStore whose folder exists already (made above, synchronously). FileStore's own check runs a
 * `fs.mkdir` whose failure it throws from the callback: an uncaught exception when the data folder goes
 * away meanwhile (a test's teardown, a wiped volume), which would take the whole process down.
 */
class PreparedFileStore extends FileStore {}
// `checkOrCreateDirectory` is private in FileStore's typings; the constructor calls it through `this`.
(PreparedFileStore.prototype as unknown as { checkOrCreateDirectory: () => void }).checkOrCreateDirectory = () => undefined;

/**
 * The bytes an upload's store holds now, per app (the same number a tus HEAD answers): /active-jobs
 * reads it so that it and the dataset page, which asks the store with HEAD, show the same bytes received
 * even when a cut-off request never told the database.
 */
const storeOffsets = new WeakMap<object, (id: string) => Promise<number | null>>();
export const storedUploadOffset = (ctx: object, id: string): Promise<number | null> => storeOffsets.get(ctx)?.(id) ?? Promise.resolve(null);

export async function tusRoutes(app: FastifyInstance, opts: TusOptions) {
  const ctx = app.ctx;
  const directory = path.join(ctx.config.dataDir, 'uploads');
  fs.mkdirSync(directory, { recursive: true });
  const expirationMs = ctx.config.uploadExpiryMs;
  // With a shared blob store (S3), uploads live there, so any instance continues any upload; on local
  // blobs (one machine) they stay in the data folder (ADR 0025).
  const shared = ctx.blobs.kind === 's3' ? new BlobTusStore(ctx.blobs, { expirationMs, tmpDir: path.join(directory, 'spool') }) : null;
  const datastore = shared ?? new PreparedFileStore({ directory, expirationPeriodInMilliseconds: expirationMs });
  const open = (id: string) => (shared ? shared.read(id) : fs.createReadStream(path.join(directory, id)));
  storeOffsets.set(ctx, async (id) => {
    const upload = await datastore.getUpload(id).catch(() => null);
    return upload && Number.isFinite(upload.offset) ? upload.offset : null;
  });
  // Built on the first upload request.
  let tusServer: Server | null = null;
  const getTus = () => {
    if (tusServer) return tusServer;

    const tus = new Server({
      path: TUS_PATH,
      datastore,
      relativeLocation: true,
      respectForwardedHeaders: ctx.config.trustProxy.length > 0,
      onUploadCreate: async (req, upload) => {
        const grant = verifyUploadToken(upload.metadata?.token ?? '', ctx.secret, ctx.clock.now());
        if (!grant) throw tusError(403, ErrorCode.InvalidUploadToken, 'The upload token is invalid or expired; ask for a new one');
        if (req.headers.get('x-sightline-uid') !== grant.uid) throw tusError(403, ErrorCode.Forbidden, 'This upload token belongs to another account');
        if (upload.size === undefined || upload.size !== grant.bytes)
          throw tusError(400, ErrorCode.Validation, `Upload-Length must be ${grant.bytes} as granted`);
        // The bytes are claimed now, atomically: parallel uploads cannot together pass the quota.
        try {
          await opts.reserve(grant.uid, upload.id, grant.bytes);
        } catch (err) {
          if (isStorageError(err)) throw tusError(403, ErrorCode.InsufficientStorage, err.message, err.details);
          throw err;
        }
        const filename = path.posix.basename(grant.path);
        await uploadsRepository.insert(ctx.db, {
          id: upload.id,
          userId: grant.uid,
          datasetId: blobKeys.datasetIdOf(grant.path),
          path: grant.path,
          filename,
          bytes: grant.bytes,
          createdAt: ctx.clock.now(),
          updatedAt: ctx.clock.now(),
        });
        // The token has done its job: keep only what later requests need.
        return { metadata: { uid: grant.uid, path: grant.path, filename } };
      },
      onIncomingRequest: async (req, uploadId) => {
        if (req.method === 'POST') return;
        const upload = await datastore.getUpload(uploadId).catch(() => null);
        if (!upload) return; // the datastore answers 404 itself
        if (req.headers.get('x-sightline-uid') !== upload.metadata?.uid) throw tusError(403, ErrorCode.Forbidden, 'This upload belongs to another account');
        if (req.method === 'PATCH' && upload.size !== undefined) {
          // Refreshes the reservation; an upload resumed after its reservation expired must fit again.
          try {
            await opts.reserve(upload.metadata!.uid!, uploadId, upload.size);
          } catch (err) {
            if (!isStorageError(err)) throw err;
            await uploadsRepository.update(ctx.db, uploadId, { status: 'failed', error: ErrorCode.InsufficientStorage, updatedAt: ctx.clock.now() });
            throw tusError(403, ErrorCode.InsufficientStorage, `Storage ran out during the upload: ${err.message}`, err.details);
          }
        }
      },
      onUploadFinish: async (_req, upload) => {
        const meta = upload.metadata as { uid: string; path: string; filename: string };
        try {
          await opts.onFinished({
            id: upload.id,
            uid: meta.uid,
            path: meta.path,
            filename: meta.filename,
            bytes: upload.size ?? upload.offset,
            open: () => open(upload.id),
          });
        } catch (err) {
          const e = err as { statusCode?: number; code?: string; message: string; details?: unknown };
          await opts.release(upload.id).catch(() => undefined);
          await uploadsRepository.update(ctx.db, upload.id, { status: 'failed', error: e.code ?? ErrorCode.Unknown, updatedAt: ctx.clock.now() });
          throw tusError(
            e.statusCode ?? 500,
            e.code ?? ErrorCode.Unknown,
            e.statusCode && e.statusCode < 500 ? e.message : 'Could not store the upload',
            e.details,
          );
        }
        // Settled: the dataset's bytes now count in place of the reservation.
        await opts.release(upload.id);
        await uploadsRepository.update(ctx.db, upload.id, {
          status: 'done',
          offset: upload.size ?? upload.offset,
          completedAt: ctx.clock.now(),
          updatedAt: ctx.clock.now(),
        });
        await datastore.remove(upload.id).catch(() => undefined);
        return {};
      },
    });
    tus.on(EVENTS.POST_TERMINATE, (_req, _res, id) => {
      void opts.release(id).catch(() => undefined);
    });
    tus.on(EVENTS.POST_RECEIVE, (_req, upload) => {
      void uploadsRepository.raiseOffset(ctx.db, upload.id, upload.offset, ctx.clock.now()).catch(() => undefined);
    });
    tusServer = tus;
    return tus;
  };

  // Abandoned uploads expire on every instance: each sweeps its own folder, or the shared store.
  const sweep = async () => {
    const removed = await getTus().cleanUpExpiredUploads();
    const failed = await uploadsRepository.expireBefore(ctx.db, new Date(ctx.clock.now().getTime() - expirationMs), ctx.clock.now());
    for (const id of failed) await opts.release(id).catch(() => undefined);
    if (removed || failed.length) app.log.info({ removed, failed: failed.length }, 'expired uploads removed');
  };
  const sweeper = setInterval(
    () => void sweep().catch((err: unknown) => app.log.warn({ err }, 'expired upload sweep failed')),
    Math.min(3_600_000, Math.max(1000, Math.floor(expirationMs / 4))),
  );
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  // Bodies are streams for tus: let them through untouched.
  app.addContentTypeParser('application/offset+octet-stream', (_req, _payload, done) => done(null));
  const handler = async (req: FastifyRequest, reply: import('fastify').FastifyReply) => {
    if (!req.principal && req.method !== 'OPTIONS') {
      return reply.status(401).send({ error: { code: ErrorCode.Unauthorized, message: 'Sign in to upload' } });
    }
    // The signed-in user travels to the tus hooks as a header only the server sets.
    // (srvx builds the web Request from rawHeaders, so that is where it must go; a client-sent copy is dropped.)
    const uid = req.principal?.user.id ?? '';
    const raw = req.raw.rawHeaders;
    const kept: string[] = [];
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== 'x-sightline-uid') kept.push(raw[i]!, raw[i + 1]!);
    kept.push('x-sightline-uid', uid);
    raw.splice(0, raw.length, ...kept);
    req.raw.headers['x-sightline-uid'] = uid;
    reply.hijack();
    const id = req.url.split('?')[0]!.split('/').pop();
    try {
      await getTus().handle(req.raw, reply.raw);
    } finally {
      // Keep the server-side offset current for /active-jobs (tus only emits progress on long requests).
      // A PATCH cut off (the tab closed mid-upload) kept the bytes that arrived: the store's offset is what
      // a resume continues from, and what /active-jobs and the dataset page must both show.
      if (req.method === 'PATCH' && id && id !== 'tus') {
        const answered = Number(reply.raw.getHeader('upload-offset'));
        const offset =
          reply.raw.statusCode === 204 && Number.isFinite(answered) ? answered : ((await datastore.getUpload(id).catch(() => null))?.offset ?? NaN);
        if (Number.isFinite(offset)) await uploadsRepository.raiseOffset(ctx.db, id, offset, ctx.clock.now()).catch(() => undefined);
      }
    }
  };
  for (const url of [TUS_PATH, `${TUS_PATH}/*`]) {
    app.route({ method: ['POST', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS', 'GET'], url, schema: { hide: true }, bodyLimit: 1, handler });
  }
}
