import { MODEL_DEFAULTS, type Abilities, type Model, type ModelConfig, type TrainingState } from '@sightline/contracts';
import { shortLinkExpiry } from '../../platform/http/signed-links.js';
import { signBlobUrl } from '../../platform/storage/signed-url.js';
import type { ModelFileRow, ModelRow, ModelTrainingRow } from './models.repository.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A client-reported run as the model's `training` field shows it. */
export function presentTraining(row: ModelTrainingRow | null | undefined): TrainingState | null {
  if (!row) return null;
  return {
    protocol: row.protocol,
    runId: row.runId,
    outcome: row.outcome,
    error: row.error,
    ended: row.endedAt ? row.endedAt.toISOString() : null,
    cancelRequested: row.cancelRequestedAt !== null,
    stale: row.staleAt ? row.staleAt.toISOString() : null,
    lastEvent: row.lastEventAt ? row.lastEventAt.toISOString() : null,
    epochsTotal: row.epochsTotal,
    bestEpoch: row.bestEpoch,
  };
}

export interface ModelPresentation {
  abilities: Abilities;
  username: string;
  projectName: string | null;
  files: ModelFileRow[];
  /** The number of the dataset version it trained on (ADR 0038). */
  datasetVersion?: number | null;
  secret: string;
  baseUrl: string;
  now: Date;
  /** The model's access version (access/link-version.ts): its file links die when privacy, team or trash change. */
  access: string;
  /** Client-reported run state (modules/training), when any. */
  training?: TrainingState | null;
}

/**
 * Download links of model files: minutes for the web app (pages refetch; shortLinkExpiry), longer
 * for training clients (`ttlMs`), always bound to the model's access version (ADR 0014).
 */
export function fileUrl(f: ModelFileRow, p: Pick<ModelPresentation, 'secret' | 'baseUrl' | 'now' | 'access'>, ttlMs?: number) {
  const expiresAt = ttlMs === undefined ? shortLinkExpiry(p.now) : new Date(p.now.getTime() + ttlMs);
  return signBlobUrl({ key: f.blobKey, expiresAt, filename: f.name, secret: p.secret, baseUrl: p.baseUrl, access: p.access });
}

export function presentModel(row: ModelRow, p: ModelPresentation): Model {
  const stored = row.config as Partial<ModelConfig>;
  const config = { ...MODEL_DEFAULTS.config, ...stored } as ModelConfig;
  const exportsMap: Model['exports'] = {};
  for (const f of p.files) if (f.kind !== 'best' && f.kind !== 'last') exportsMap[f.kind] = { bytes: f.bytes, status: 'ready' };
  return {
    id: row.id,
    slug: row.slug,
    config,
    dataset: {
      id: row.datasetId,
      name: row.datasetName,
      filepath: null,
      url: row.datasetId ? `/datasets/${row.datasetId}` : null,
      type: null,
      version: p.datasetVersion ?? null,
    },
    lineage: {
      architecture: { id: row.architectureId, name: row.architectureName },
      parent: { id: row.parentId, name: row.parentName, path: row.parentPath, url: row.parentUrl },
    },
    meta: { name: row.name, description: row.description, privacy: row.privacy },
    project: { id: row.projectId, name: p.projectName },
    dates: {
      created: row.createdAt.toISOString(),
      updated: row.updatedAt.toISOString(),
      archived: iso(row.archivedAt),
      deleted: iso(row.deletedAt),
      train: { start: iso(row.trainStart), end: iso(row.trainEnd), heartbeat: iso(row.trainHeartbeat), initialized: iso(row.trainInitialized) },
    },
    owner: { uid: row.userId, username: p.username },
    order: row.order,
    task: row.task,
    names: row.names,
    exports: exportsMap,
    files: p.files
      .slice()
      .sort((a, b) => a.kind.localeCompare(b.kind))
      .map((f) => ({ kind: f.kind, name: f.name, bytes: f.bytes, epoch: f.epoch, created: f.createdAt.toISOString(), url: fileUrl(f, p) })),
    totals: { bytes: row.bytes },
    team: { id: row.teamId },
    metrics: { epochs: row.epochsDone, best: row.bestMetrics },
    abilities: p.abilities,
    origin: row.origin,
    // Uploaded weights: only what their file says (ONNX metadata), never the training defaults.
    imageSize: row.origin === 'uploaded' ? (typeof stored.imageSize === 'number' ? stored.imageSize : null) : config.imageSize,
    status: row.hubStatus,
    training: p.training ?? null,
  };
}
