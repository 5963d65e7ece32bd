import { modelConfigSchema, parseCacheValue } from '@sightline/contracts';
import type { z } from 'zod';
import { blobKeys } from '../../platform/storage/blob-keys.js';
import { slugify } from '../projects/slugs.js';

/** Pure translations of what the ultralytics clients send into Sightline's names and config. */

/** `owner/rest` → slug of rest; no `/` → slug of the whole (client's `_get_project_name`, platform-protocol §4.10). */
export function projectSlugOf(project: string): { slug: string; name: string } {
  const rest = project.includes('/') ? project.slice(project.indexOf('/') + 1) : project;
  const name = rest.replace(/\//g, '-').trim() || 'Untitled';
  return { slug: slugify(name), name };
}

/** Training args arrive stringified (`"8"`, `"None"`, `"False"`); keep only what our config validates. */
export function configFromTrainArgs(args: Record<string, unknown>) {
  const str = (k: string) => (args[k] === undefined || args[k] === null ? undefined : String(args[k]));
  const num = (k: string) => {
    const v = str(k);
    return v !== undefined && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : undefined;
  };
  const cache = str('cache');
  const device = str('device');
  const time = num('time');
  const candidate = {
    epochs: num('epochs'),
    imageSize: num('imgsz'),
    batchSize: num('batch'),
    patience: num('patience'),
    cache: cache === undefined ? undefined : parseCacheValue(cache),
    device: device === undefined || device === 'None' || device === '' ? undefined : device,
    time: time ?? undefined,
  };
  const out: Record<string, unknown> = {};
  const shape = modelConfigSchema.shape as Record<string, z.ZodTypeAny>;
  for (const [k, v] of Object.entries(candidate)) if (v !== undefined && shape[k]!.safeParse(v).success) out[k] = v;
  return out;
}

/** What a Platform run's `trainArgs` say about the model to create: dataset reference, architecture, parent weights, task. */
export function runArgsOf(args: Record<string, unknown>) {
  const dataArg = typeof args.data === 'string' ? args.data : null;
  const ul = dataArg ? /^ul:\/\/([^/]+)\/datasets\/([^/?#]+)$/.exec(dataArg) : null;
  const modelArg = typeof args.model === 'string' ? args.model : null;
  const modelBase = modelArg ? modelArg.split(/[\\/]/).pop()! : null;
  const fromWeights = Boolean(modelArg && (/\.pt$/i.test(modelArg) || modelArg.startsWith('ul://')));
  return {
    dataArg,
    datasetRef: ul ? { owner: ul[1]!, slug: ul[2]! } : null,
    architecture: modelBase ? { name: modelBase.replace(/\.(ya?ml|pt)$/i, '').slice(0, 200) } : undefined,
    parent: fromWeights ? { name: modelBase!.slice(0, 500), ...(modelArg!.startsWith('ul://') ? { url: modelArg! } : {}) } : undefined,
    task: typeof args.task === 'string' && /^[a-z-]{1,32}$/.test(args.task) ? args.task : null,
  };
}

/** Stored names are `<slug>[-<local stem>]-<uploadId8>.pt`: a `last` stem is the resumable checkpoint. */
export function storedKind(model: { slug: string }, storedName: string): 'best' | 'last' {
  const rest = storedName.startsWith(model.slug) ? storedName.slice(model.slug.length) : storedName;
  return /^-last-/.test(rest) ? 'last' : 'best';
}

/**
 * The stored name of a Platform checkpoint upload, or null for a filename we do not accept. Versioned:
 * ul:// downloads are cached by file name on the client (platform-protocol §5.3).
 */
export function platformStoredName(modelSlug: string, filename: string, uploadId: string): string | null {
  const base = filename.split(/[\\/]/).pop()!;
  const m = /^([A-Za-z0-9._-]{1,100}?)(\.[A-Za-z0-9]{1,8})?$/.exec(base);
  if (!m) return null;
  const stem = m[1]!.toLowerCase();
  const ext = (m[2] ?? '.pt').toLowerCase();
  return `${modelSlug}${stem === 'best' ? '' : `-${stem.replace(/[^a-z0-9-]+/g, '-')}`}-${uploadId.slice(0, 8)}${ext}`;
}

/**
 * HUB checkpoint names: unique and stable, since the client keeps any local file of the same name
 * (hub-protocol §5.9) and the model id in it lets a later local run name its parent (traces README).
 */
export function hubStoredName(modelId: string, kind: 'best' | 'last', epoch: number | null): string {
  return kind === 'best' ? `${modelId}-best.pt` : `${modelId}-last-e${epoch ?? 0}.pt`;
}

/** The model's blob folder (every file a run stores lives under it, so purging the model removes them). */
export const modelBlobPrefix = (model: { id: string; userId: string }) => blobKeys.modelPrefix(model.userId, model.id);
/** A file a run stores for the model. */
export const modelBlobKey = (model: { id: string; userId: string }, file: string) => blobKeys.modelFile(model.userId, model.id, file);
