import { roboflowStatus, roboflowTask, type Integration, type RoboflowImport, type RoboflowProject, type Subscription } from '@sightline/contracts';
import type { ImportRow, IntegrationRow, SubscriptionRow } from './integrations.repository.js';
import type { RfProject, RfVersion } from './roboflow.client.js';

const iso = (d: Date | null) => (d ? d.toISOString() : null);
/** Roboflow dates are float seconds since the epoch. */
const fromSeconds = (s: number | undefined) => (typeof s === 'number' && Number.isFinite(s) ? new Date(s * 1000).toISOString() : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);
const splits = (s: RfProject['splits']) => ({ train: num(s?.train), valid: num(s?.valid), test: num(s?.test) });

/** Never carries the key: the row's ciphertext is simply not read here. */
export function presentIntegration(row: IntegrationRow): Integration {
  return {
    id: row.id,
    type: 'roboflow',
    workspace: { slug: row.workspace, name: row.workspaceName },
    dates: { created: row.createdAt.toISOString(), updated: row.updatedAt.toISOString() },
  };
}

export function presentSubscription(row: SubscriptionRow): Subscription {
  return {
    id: row.id,
    ref: { collection: 'ext_roboflow', id: row.ref },
    hasOwnKey: row.apiKeyEnc !== null,
    dates: { created: row.createdAt.toISOString(), updated: row.updatedAt.toISOString() },
  };
}

/** Why a project cannot be imported; null when it can. */
export function unsupportedReason(p: Pick<RfProject, 'type' | 'multilabel'>): string | null {
  if (!roboflowTask(p.type))
    return `Projects of type "${p.type}" cannot be imported (supported: classification, object detection, instance and semantic segmentation).`;
  if (p.type === 'classification' && p.multilabel) return 'Multi-label classification projects cannot be imported yet.';
  return null;
}

export function presentProject(p: RfProject, source: 'workspace' | 'universe'): RoboflowProject {
  const [workspace = '', slug = ''] = p.id.split('/');
  const images = num(p.images);
  const versions = num(p.versions);
  const hasIcon = typeof p.icon === 'string' ? Boolean(p.icon) : Boolean(p.icon?.thumb ?? p.icon?.original);
  const reason = unsupportedReason(p);
  return {
    id: p.id,
    workspace,
    slug,
    name: p.name ?? slug,
    type: p.type,
    task: reason ? null : roboflowTask(p.type),
    unsupportedReason: reason,
    source,
    images,
    versions,
    classes: Object.fromEntries(Object.entries(p.classes ?? {}).map(([k, v]) => [k, num(v)])),
    splits: splits(p.splits),
    icon: hasIcon ? `/v1/integrations/roboflow/projects/${encodeURIComponent(workspace)}/${encodeURIComponent(slug)}/icon` : null,
    updated: fromSeconds(p.updated),
    public: Boolean(p.public),
    status: roboflowStatus({ images, versions }),
  };
}

/** `ws/project/3` → 3; falls back to the position for odd ids. */
export const versionNumber = (v: RfVersion) => Number(v.id.split('/').pop());

export function presentVersion(v: RfVersion, imported: RoboflowImport | null) {
  return {
    id: v.id,
    number: versionNumber(v),
    name: v.name ?? '',
    images: num(v.images),
    splits: splits(v.splits),
    created: fromSeconds(v.created),
    import: imported,
  };
}

export function presentImport(
  row: ImportRow,
  dataset: { id: string; status: string; name: string; progress: { phase: string; done: number; total: number } | null } | null,
): RoboflowImport {
  const progress =
    row.status === 'imported'
      ? (dataset?.progress ?? (dataset && dataset.status !== 'Ready' && dataset.status !== 'Failed' ? { phase: 'processing', done: 0, total: 0 } : null))
      : row.phase
        ? { phase: row.phase, done: row.done, total: row.total }
        : null;
  return {
    id: row.id,
    project: `${row.workspace}/${row.project}`,
    version: row.version,
    status: row.status,
    progress,
    error: row.error ? { code: row.errorCode ?? 'error/unknown', message: row.error } : null,
    dataset: dataset ? { id: dataset.id, status: dataset.status, name: dataset.name } : null,
    dates: { created: row.createdAt.toISOString(), updated: row.updatedAt.toISOString(), finished: iso(row.finishedAt) },
  };
}
