import type { Readable } from 'node:stream';
import { ErrorCode } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { AppError, errors } from '../../platform/http/errors.js';
import * as training from '../../modules/training/training.service.js';
import { hubStoredName, intField, uploadKind } from './hub.formats.js';

/** One part of a HUB multipart upload, as @fastify/multipart yields it. */
export type UploadPart = { type: 'field'; fieldname: string; value: unknown } | { type: 'file'; fieldname: string; file: Readable & { truncated: boolean } };

type Stored = { kind: training.CheckpointKind; key: string; name: string; bytes: number; epoch: number | null; settle: () => Promise<void> };

/**
 * HUB checkpoint or final upload (hub-protocol §5.7/5.8): fields `epoch`, `type` (epoch | final),
 * `isBest` or `map`, then one file part named `last.pt` or `best.pt`. Retried up to 10 times with the
 * same content, so it writes to a name fixed by model and epoch and replaces atomically: retries are
 * idempotent and an interrupted body leaves the model as it was. `openParts` is null when the request
 * is not multipart.
 */
export async function receiveHubUpload(
  ctx: AppContext,
  user: { id: string; plan: string },
  modelId: string,
  openParts: (() => AsyncIterable<UploadPart>) | null,
  requestBytes?: number,
) {
  const model = await training.reportableModel(ctx, user.id, modelId);
  if (!openParts) throw errors.validation('Send multipart/form-data with epoch, type and the weights file');
  const { fields, stored } = await storeParts(ctx, user, model, openParts(), requestBytes);
  if (stored.kind === 'last') return training.storeCheckpoint(ctx, model, 'hub', stored);
  await training.promoteFile(ctx, model, stored).finally(stored.settle);
  const run = await training.runOf(ctx, model.id);
  const map = Number(fields.map);
  await training.finish(ctx, model, 'hub', {
    epoch: stored.epoch,
    finalMetrics: run?.finalMetrics ?? null,
    extra: { results: { ...(run?.results ?? {}), map: Number.isFinite(map) ? map : null } },
  });
}

/** Streams the file part to its blob; fields before it decide its kind and epoch. Nothing is promoted here. */
async function storeParts(
  ctx: AppContext,
  user: { id: string; plan: string },
  model: training.ModelRow,
  parts: AsyncIterable<UploadPart>,
  requestBytes?: number,
) {
  const fields: Record<string, string> = {};
  let stored: Stored | null = null;
  try {
    for await (const part of parts) {
      if (part.type !== 'file') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      const kind = uploadKind(fields.type, part.fieldname);
      const epoch = intField(fields.epoch);
      const name = hubStoredName(model.id, kind, epoch);
      const { key, bytes, settle } = await training.receiveCheckpoint(ctx, user, model, { kind, name }, part.file, {
        settleLater: true,
        bodyBytes: requestBytes,
      });
      if (part.file.truncated || bytes === 0) {
        await ctx.blobs.delete(key).catch(() => undefined);
        await settle();
        throw bytes === 0 ? errors.validation('The weights file is empty') : errors.payloadTooLarge('Checkpoints can be at most 8 GB');
      }
      if (stored) await stored.settle();
      stored = { kind, key, name, bytes, epoch, settle };
    }
  } catch (err) {
    if (stored) await training.discardCheckpoint(ctx, model.id, stored);
    await stored?.settle().catch(() => undefined);
    if (err instanceof AppError) throw err;
    // A client that went away mid-body: nothing was promoted, the retry will send it again.
    ctx.log.warn({ err, modelId: model.id }, 'checkpoint upload interrupted');
    throw new AppError(400, ErrorCode.UploadInterrupted, 'The upload did not complete; send it again');
  }
  if (!stored) throw errors.validation('Attach the weights as a file part named last.pt or best.pt');
  return { fields, stored };
}
