import type { Readable } from 'node:stream';
import type { AppContext } from '../../context.js';
import { errors } from '../../platform/http/errors.js';
import { modelQueries, type ModelRow } from '../models/index.js';
import { modelBlobKey, modelBlobPrefix } from './training.args.js';
import { streamIntoStore } from './training.files.js';
import { trainingRepository } from './training.repository.js';

/**
 * The model's weights as a run stores them (the lifecycle's "store checkpoint", ADR 0020): a body
 * streamed into the model's blob folder within the owner's quota, then promoted to the model's file
 * of its kind. How a client names and sends its files is the adapters' business (compat/).
 */

/** Checkpoints carry optimizer state (~3× the weights): allow big ones, the storage quota still applies. */
export const MAX_CHECKPOINT_BYTES = 8 * 1024 ** 3;

export type CheckpointKind = 'best' | 'last';

export async function fileOf(ctx: AppContext, modelId: string, kind: string) {
  return trainingRepository.file(ctx.db, modelId, kind);
}

/**
 * Streams a checkpoint body to the model's blob `name` within the owner's quota (the file it will
 * replace counts as room). Nothing is promoted: the caller promotes (promoteFile) and then ends the
 * reservation (`settle`); or, with `settleLater: false`, it ends here. The put is atomic, so an
 * interrupted body leaves nothing behind.
 */
export async function receiveCheckpoint(
  ctx: AppContext,
  owner: { id: string; plan: string },
  model: Pick<ModelRow, 'id' | 'userId'>,
  file: { kind: CheckpointKind; name: string },
  body: Readable,
  opts: { declaredBytes?: number; bodyBytes?: number; settleLater: boolean },
) {
  const key = modelBlobKey(model, file.name);
  const replacing = (await fileOf(ctx, model.id, file.kind))?.bytes ?? 0;
  const { bytes, settle } = await streamIntoStore(ctx, owner, key, body, {
    declaredBytes: opts.declaredBytes,
    bodyBytes: opts.bodyBytes,
    replacing,
    maxBytes: MAX_CHECKPOINT_BYTES,
    settleLater: opts.settleLater,
  });
  return { key, bytes, settle };
}

/** Removes a received blob that will not be promoted (unless it became the model's file after all). */
export async function discardCheckpoint(ctx: AppContext, modelId: string, stored: { kind: CheckpointKind; key: string }) {
  if (await fileOf(ctx, modelId, stored.kind).then((f) => f?.blobKey === stored.key)) return;
  await ctx.blobs.delete(stored.key).catch(() => undefined);
}

/**
 * Makes an uploaded blob the model's file of `kind`, in one transaction with the model's byte total,
 * then removes the blob it replaced. Blob first, row second: a client dying mid-upload never leaves a
 * row pointing at a missing or partial file.
 */
export async function promoteFile(
  ctx: AppContext,
  model: Pick<ModelRow, 'id'>,
  file: { kind: CheckpointKind; key: string; name: string; bytes: number; epoch: number | null },
  opts: { onlyIfNewer?: boolean } = {},
) {
  const now = ctx.clock.now();
  let skipped = false;
  const previous = await ctx.db.transaction(async (tx) => {
    await trainingRepository.lockModel(tx, model.id);
    const old = await trainingRepository.file(tx, model.id, file.kind);
    // Checkpoint uploads run in parallel client threads: an older epoch finishing last must not win.
    if (opts.onlyIfNewer && old && old.epoch !== null && file.epoch !== null && old.epoch > file.epoch) {
      skipped = true;
      return null;
    }
    await modelQueries.upsertFile(tx, {
      modelId: model.id,
      kind: file.kind,
      name: file.name,
      blobKey: file.key,
      bytes: file.bytes,
      epoch: file.epoch,
      createdAt: now,
    });
    await modelQueries.refreshBytes(tx, model.id);
    await trainingRepository.touchModel(tx, model.id, now);
    return old ?? null;
  });
  if (skipped) {
    await ctx.blobs.delete(file.key).catch(() => undefined);
    return false;
  }
  if (previous && previous.blobKey !== file.key && !(await trainingRepository.blobInUse(ctx.db, previous.blobKey))) {
    await ctx.blobs.delete(previous.blobKey).catch((err: unknown) => ctx.log.warn({ err, key: previous.blobKey }, 'could not delete replaced model file'));
  }
  return true;
}

/**
 * A blob key a client echoes (it was handed the key when it uploaded) becomes the model's file: it
 * must be one of this model's blobs (no promoting someone else's) and exist. `kindOf` reads the
 * kind from the stored name (the adapter named it).
 */
export async function promoteStored(ctx: AppContext, model: Pick<ModelRow, 'id' | 'userId'>, key: string, kindOf: (name: string) => CheckpointKind) {
  const prefix = modelBlobPrefix(model);
  if (!key.startsWith(prefix) || key.includes('..')) throw errors.validation('modelPath does not belong to this model');
  const head = await ctx.blobs.head(key);
  if (!head) throw errors.validation('Nothing was uploaded to modelPath');
  const name = key.slice(prefix.length);
  const kind = kindOf(name);
  const current = await fileOf(ctx, model.id, kind);
  if (current?.blobKey !== key) await promoteFile(ctx, model, { kind, key, name, bytes: head.bytes, epoch: null });
}
