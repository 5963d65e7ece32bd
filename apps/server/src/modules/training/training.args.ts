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

/** The model's blob folder (every file a run stores lives under it, so purging the model removes them). */
export const modelBlobPrefix = (model: { id: string; userId: string }) => blobKeys.modelPrefix(model.userId, model.id);
/** A file a run stores for the model. */
export const modelBlobKey = (model: { id: string; userId: string }, file: string) => blobKeys.modelFile(model.userId, model.id, file);
