import { MODEL_DEFAULTS, type Model, type ModelConfig } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import { CLIENT_URL_TTL_MS } from '../../platform/http/signed-links.js';
import { linkVersionOf, may } from '../access/index.js';
import { datasetItem } from '../datasets/datasets.policy.js';
import { datasetById, datasetDownloadUrl } from '../datasets/datasets.training-export.js';
import { versionById, versionForClient, versionForWorkingRun } from '../dataset-versions/index.js';
import { modelItem } from './models.policy.js';
import { fileUrl } from './models.presenter.js';
import { modelsRepository, type ModelFileRow, type ModelRow } from './models.repository.js';

export type HubModelFields = Pick<
  Model,
  | 'data'
  | 'cfg'
  | 'weights'
  | 'resume'
  | 'is_pretrained'
  | 'has_last_weights'
  | 'has_best_weights'
  | 'train_args'
  | 'batch_size'
  | 'epochs'
  | 'imgsz'
  | 'patience'
  | 'device'
  | 'cache'
>;

const isWeights = (name: string | null | undefined) => Boolean(name && /\.pt$/i.test(name));

/**
 * The fields of hub-protocol §10 that the ultralytics HUB client reads from GET /v1/models/{id}, for
 * every client era: `train_args` (8.1.30+), the legacy top-level train settings (≤ 8.1.29), `status`
 * (already on the model) and self-authorising URLs for the dataset and weights (downloads carry no auth).
 */
export async function hubModelFields(ctx: AppContext, viewerId: string | null, row: ModelRow, files: ModelFileRow[], baseUrl: string): Promise<HubModelFields> {
  const config = { ...MODEL_DEFAULTS.config, ...(row.config as Partial<ModelConfig>) } as ModelConfig;
  const sign = { secret: ctx.secret, baseUrl, now: ctx.clock.now(), access: linkVersionOf(row) };
  const best = files.find((f) => f.kind === 'best');
  const last = files.find((f) => f.kind === 'last');
  const dataset = row.datasetId ? await datasetById(ctx, row.datasetId) : null;
  // A dataset still without an archive has no URL yet; the client then says "Dataset may still be processing".
  // A public model may use a private dataset: its signed link goes only to those who may read the dataset.
  // The link names a version (ADR 0038): the one the model trained on, else the working state's (saved now when it changed since the newest).
  const readable = dataset && !dataset.deletedAt && dataset.processedAt && (await may(ctx, viewerId, datasetItem(dataset), 'read')) ? dataset : null;
  const pinned = readable && row.datasetVersionId ? await versionById(ctx, row.datasetVersionId) : null;
  const version = !readable
    ? null
    : pinned && !pinned.deletedAt && pinned.datasetId === readable.id
      ? pinned
      : await (row.trainStart ? versionForClient(ctx, readable, null) : versionForWorkingRun(ctx, readable, row.name)).catch(() => null);
  const data = readable ? datasetDownloadUrl(ctx, readable, baseUrl, version?.number) : null;
  const trained = row.hubStatus === 'trained';
  // A parent that is one of the viewer's readable, trained models starts from its best.pt.
  const parentBest = !trained && row.parentId ? await readableParentBest(ctx, viewerId, row.parentId) : null;
  const parent = parentBest
    ? fileUrl(parentBest.file, { ...sign, access: linkVersionOf(parentBest.model) }, CLIENT_URL_TTL_MS)
    : (row.parentUrl ?? row.parentName);
  const isPretrained = Boolean(parentBest) || isWeights(parent) || isWeights(row.parentUrl);
  const arch = row.architectureName?.trim() || null;
  const cfg = isPretrained || !arch ? null : /\.ya?ml$/i.test(arch) ? arch : `${arch}.yaml`;
  const cache = config.cache ?? false;
  const trainArgs: Record<string, unknown> | null = data
    ? {
        // Only real ultralytics train keys with valid types (get_cfg rejects unknown keys, hub-protocol §5.3).
        ...(config.advanced ?? {}),
        data,
        epochs: config.epochs,
        imgsz: config.imageSize,
        batch: config.batchSize,
        patience: config.patience,
        cache,
        ...(config.device ? { device: config.device } : {}),
        ...(config.time ? { time: config.time } : {}),
      }
    : null;
  return {
    data,
    cfg,
    weights: trained && best ? fileUrl(best, sign, CLIENT_URL_TTL_MS) : !trained && isPretrained ? parent : null,
    resume: !trained && last ? fileUrl(last, sign, CLIENT_URL_TTL_MS) : null,
    is_pretrained: isPretrained,
    has_last_weights: !trained && Boolean(last),
    has_best_weights: Boolean(best),
    train_args: trainArgs,
    batch_size: config.batchSize,
    epochs: config.epochs,
    imgsz: config.imageSize,
    patience: config.patience,
    device: config.device ?? '',
    cache,
  };
}

async function readableParentBest(ctx: AppContext, viewerId: string | null, parentId: string): Promise<{ model: ModelRow; file: ModelFileRow } | null> {
  const parent = await modelsRepository.byId(ctx.db, parentId);
  if (!parent || parent.deletedAt || !(await may(ctx, viewerId, modelItem(parent), 'read'))) return null;
  const file = (await modelsRepository.files(ctx.db, [parent.id])).find((f) => f.kind === 'best');
  return file ? { model: parent, file } : null;
}
