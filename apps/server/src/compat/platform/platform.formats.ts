/**
 * Pure pieces of the Platform wire format (platform-protocol.md): what `trainArgs` name (`ul://`
 * datasets and weights), the stored names of checkpoint uploads and the layout of their signed URLs.
 */

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

/** Where the Platform client PUTs its checkpoints (signed URLs handed out by the upload route). */
export const CHECKPOINT_UPLOAD_PREFIX = '/v1/compat/uploads/';

/**
 * How a checkpoint is promoted: `m` waits for the client's checkpoint_saved (clients with a runId
 * send it), `a` is promoted when the body lands (clients without a runId never send it).
 */
export type UploadMode = 'a' | 'm';

/** `/v1/compat/uploads/<modelId>/<uploadId>/<mode>/<storedName>`: everything the PUT needs is in its signed path. */
export const uploadPath = (u: { modelId: string; uploadId: string; mode: UploadMode; storedName: string }) =>
  `${CHECKPOINT_UPLOAD_PREFIX}${u.modelId}/${u.uploadId}/${u.mode}/${u.storedName}`;

/** The parts of an upload path (query already cut off); missing parts are empty. */
export function parseUploadPath(path: string): { modelId: string; mode: UploadMode; storedName: string } {
  const [modelId, , mode, storedName] = path.slice(CHECKPOINT_UPLOAD_PREFIX.length).split('/').map(decodeURIComponent);
  return { modelId: modelId ?? '', mode: mode === 'a' ? 'a' : 'm', storedName: storedName ?? '' };
}

/**
 * The signed NDJSON path a `ul://<owner>/datasets/<slug>[:vN]` resolves to (platform-protocol §5.1/5.2):
 * one path per dataset version (ADR 0038), as the client caches a conversion by its URL's path.
 */
export const datasetNdjsonPath = (dataset: { id: string; slug: string; version: number }) =>
  `/v1/compat/datasets/${dataset.id}/${encodeURIComponent(dataset.slug)}.v${dataset.version}.ndjson`;
