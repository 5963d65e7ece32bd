import { defaultOptions, Upload as TusUpload, type DetailedError, type PreviousUpload } from 'tus-js-client';
import { createStore, useStore } from './create-store';
import { createLogger } from './logger';
import { uploads } from './uploads';

const log = createLogger('resumable-uploads');

/**
 * Resumable uploads (tus) running in this browser, for any feature. Each is also registered in the
 * Upload store of spec §3 (`lib/uploads`: id, progress, paused) so the leave prompt knows about it;
 * this store adds what the progress UI shows. Bytes go in chunks read lazily from the File, so memory
 * stays flat whatever the size; the upload URL is stored under a fingerprint so that a reload (or a
 * crash) resumes from the server's offset once the same file is chosen again.
 */
export type ResumableStatus = 'uploading' | 'paused' | 'error' | 'done';

export interface ResumableUpload {
  id: string;
  /** What the upload is for, shown in lists (a dataset name). */
  name: string;
  filename: string;
  bytesSent: number;
  bytesTotal: number;
  /** 0..1 */
  progress: number;
  paused: boolean;
  status: ResumableStatus;
  /** Server error code and message when status is error. */
  error: { code: string; message: string; details?: unknown } | null;
  /** Where the item lives in the app (the dataset page). */
  link: string | null;
  /** Bytes the server already had when this run started (a resumed upload). */
  resumedFrom: number;
  startedAt: number;
}

export interface StartOptions {
  id: string;
  name: string;
  file: File;
  endpoint: string;
  /** tus metadata for creating the upload (the upload token, the file name). */
  metadata?: Record<string, string>;
  /** Stable key of this file for this target; a stored upload under it is resumed. */
  fingerprint: string;
  link?: string;
  chunkSize?: number;
  onSuccess?: () => void | Promise<void>;
  onError?: (error: ResumableUpload['error']) => void;
}

interface State {
  uploads: ResumableUpload[];
}

const store = createStore<State>({ uploads: [] });
const live = new Map<string, TusUpload>();

/** About 50 chunks per file: fine-grained progress and little lost on an interruption, 256 KiB to 32 MiB each. */
export function chunkSizeFor(bytes: number): number {
  return Math.min(32 * 1024 * 1024, Math.max(256 * 1024, Math.ceil(bytes / 50)));
}

function patch(id: string, change: Partial<ResumableUpload>) {
  store.setState((s) => ({ uploads: s.uploads.map((u) => (u.id === id ? { ...u, ...change } : u)) }));
  const u = store.getState().uploads.find((x) => x.id === id);
  if (!u) return;
  if (u.status === 'uploading' || u.status === 'paused') uploads.progress(id, Math.min(u.progress, 0.999), u.paused);
  else uploads.finish(id);
}

/** The error a tus request failed with, read from the server's `{error:{code,message,details}}` body. */
export function tusError(error: Error | DetailedError): NonNullable<ResumableUpload['error']> {
  const response = (error as DetailedError).originalResponse;
  const body = response?.getBody?.();
  if (body) {
    try {
      const parsed = JSON.parse(body) as { error?: { code?: string; message?: string; details?: unknown } };
      if (parsed.error?.code) return { code: parsed.error.code, message: parsed.error.message ?? parsed.error.code, details: parsed.error.details };
    } catch {
      /* not JSON: fall through */
    }
  }
  if (response) return { code: `http/${response.getStatus()}`, message: body || error.message };
  return { code: 'auth/network-request-failed', message: error.message };
}

/** Client errors (a full storage quota is a 403) will not go away by retrying; network errors and 5xx may. */
function shouldRetry(error: DetailedError): boolean {
  const status = error.originalResponse?.getStatus() ?? 0;
  return status === 0 || status === 409 || status === 423 || status >= 500;
}

/** Uploads stored for resuming under this fingerprint (tus keeps them in localStorage). */
export async function findStoredUploads(fingerprint: string): Promise<PreviousUpload[]> {
  const probe = new TusUpload(new Blob([]), { endpoint: '/', fingerprint: () => Promise.resolve(fingerprint) });
  return probe.findPreviousUploads().catch(() => []);
}

/**
 * The newest upload stored in this browser whose fingerprint starts with `prefix`, with the server's
 * offset for it (tus HEAD): how much an interrupted upload already sent, before the file is chosen again.
 */
export async function storedUploadProgress(prefix: string): Promise<{ offset: number; size: number; filename: string | null } | null> {
  const all = await defaultOptions.urlStorage.findAllUploads().catch(() => [] as PreviousUpload[]);
  const mine = all
    .filter((u) => u.urlStorageKey.startsWith(`tus::${prefix}`) && u.uploadUrl)
    .sort((a, b) => Date.parse(b.creationTime) - Date.parse(a.creationTime));
  for (const upload of mine) {
    const res = await fetch(upload.uploadUrl!, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' }, credentials: 'same-origin' }).catch(() => null);
    if (!res?.ok) continue;
    const offset = Number(res.headers.get('Upload-Offset'));
    const size = Number(res.headers.get('Upload-Length') ?? upload.size);
    if (Number.isFinite(offset) && Number.isFinite(size)) return { offset, size, filename: upload.metadata?.filename ?? null };
  }
  return null;
}

/** Starts (or resumes, when one is stored under the fingerprint) an upload; resolves once it runs. */
export async function startResumableUpload(options: StartOptions): Promise<void> {
  const { id, file } = options;
  live
    .get(id)
    ?.abort()
    .catch(() => undefined);
  const entry: ResumableUpload = {
    id,
    name: options.name,
    filename: file.name,
    bytesSent: 0,
    bytesTotal: file.size,
    progress: 0,
    paused: false,
    status: 'uploading',
    error: null,
    link: options.link ?? null,
    resumedFrom: 0,
    startedAt: Date.now(),
  };
  store.setState((s) => ({ uploads: [entry, ...s.uploads.filter((u) => u.id !== id)] }));
  uploads.start({ id, name: options.name });

  const upload = new TusUpload(file, {
    endpoint: new URL(options.endpoint, window.location.href).href,
    metadata: options.metadata ?? { filename: file.name },
    fingerprint: () => Promise.resolve(options.fingerprint),
    chunkSize: options.chunkSize ?? chunkSizeFor(file.size),
    retryDelays: [0, 1000, 3000, 5000, 10000],
    storeFingerprintForResuming: true,
    removeFingerprintOnSuccess: true,
    onShouldRetry: (error) => shouldRetry(error),
    onAfterResponse: (req, res) => {
      // The server's offset when (re)starting: what a resume skips.
      if (req.getMethod() !== 'HEAD' || res.getStatus() !== 200) return;
      const offset = Number(res.getHeader('Upload-Offset'));
      if (Number.isFinite(offset)) patch(id, { resumedFrom: offset, bytesSent: offset, progress: file.size ? offset / file.size : 0 });
    },
    onProgress: (bytesSent, bytesTotal) => {
      // Ignore progress reported by a request still draining after pause().
      if (store.getState().uploads.find((u) => u.id === id)?.paused) return;
      patch(id, { bytesSent, bytesTotal, progress: bytesTotal ? bytesSent / bytesTotal : 0 });
    },
    onSuccess: () => {
      live.delete(id);
      patch(id, { bytesSent: file.size, progress: 1, status: 'done', paused: false });
      void Promise.resolve(options.onSuccess?.()).catch((error) => log.error('after upload', error));
    },
    onError: (error) => {
      const err = tusError(error);
      log.warn(`upload ${id} failed`, err.code, err.message);
      patch(id, { status: 'error', error: err, paused: false });
      options.onError?.(err);
    },
  });
  live.set(id, upload);
  const previous = await upload.findPreviousUploads().catch(() => [] as PreviousUpload[]);
  const match = previous.find((p) => p.size === file.size);
  if (match) upload.resumeFromPreviousUpload(match);
  upload.start();
}

export function pauseUpload(id: string): void {
  const upload = live.get(id);
  if (!upload) return;
  patch(id, { paused: true, status: 'paused' });
  void upload.abort().catch(() => undefined);
}

export function resumeUpload(id: string): void {
  const upload = live.get(id);
  if (!upload) return;
  patch(id, { paused: false, status: 'uploading', error: null });
  // start() after abort() asks the server for its offset (HEAD) and continues from there.
  upload.start();
}

/** Stops for good: the server drops the partial upload and the fingerprint is forgotten. */
export async function cancelUpload(id: string): Promise<void> {
  const upload = live.get(id);
  live.delete(id);
  store.setState((s) => ({ uploads: s.uploads.filter((u) => u.id !== id) }));
  uploads.finish(id);
  if (upload) await upload.abort(true).catch(() => undefined);
}

/** Removes a finished or failed upload from the list. */
export function dismissUpload(id: string): void {
  if (live.has(id) && store.getState().uploads.find((u) => u.id === id)?.status !== 'error') return;
  live.delete(id);
  store.setState((s) => ({ uploads: s.uploads.filter((u) => u.id !== id) }));
  uploads.finish(id);
}

export const resumableUploads = {
  store,
  get: (id: string) => store.getState().uploads.find((u) => u.id === id),
  /** Uploads that would be lost by leaving the page. */
  running: () => store.getState().uploads.filter((u) => u.status === 'uploading' || u.status === 'paused'),
  /** Test helper. */
  reset() {
    for (const upload of live.values()) void upload.abort().catch(() => undefined);
    live.clear();
    for (const u of store.getState().uploads) uploads.finish(u.id);
    store.setState({ uploads: [] });
  },
};

export function useResumableUploads(): ResumableUpload[] {
  return useStore(store, (s) => s.uploads);
}

export function useResumableUpload(id: string | undefined): ResumableUpload | undefined {
  return useStore(store, (s) => (id ? s.uploads.find((u) => u.id === id) : undefined));
}
