import { ErrorCode, Messages, type Dataset } from '@sightline/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { ApiError, isApiError } from '../../../lib/api-client';
import i18n from '../../../lib/i18n';
import { notifications } from '../../../lib/notifications';
import { startResumableUpload, type ResumableUpload } from '../../../lib/resumable-uploads';
import { createDataset, type CreateDatasetInput } from '../api/create-dataset';
import { deleteDataset } from '../api/delete-dataset';
import { datasetQueryKey, processingNoticeId } from '../api/get-dataset';
import { getStorage } from '../api/get-storage';
import { archivePath, getUploadToken } from '../api/get-upload-token';
import { processDataset } from '../api/process-dataset';
import { addDataset, datasetsList } from '../stores/datasets-list';
// Its notifications need the datasets language file even when no dataset page has loaded yet.
import '../i18n';

/**
 * The upload of a dataset archive: storage check and upload token (with the spec's pending
 * notification), the resumable upload, then POST /process once the last byte is in.
 */

const t = (key: string, options?: Record<string, unknown>) => i18n.t(`datasets:${key}`, options ?? {});

/** One archive for one dataset: a reload resumes it only when the same file is chosen again. */
export const fingerprintPrefix = (datasetId: string) => `sightline-dataset:${datasetId}:`;
export const fingerprintFor = (datasetId: string, file: File) => `${fingerprintPrefix(datasetId)}${[file.name, file.size, file.lastModified].join(':')}`;

/** What went wrong before or during an upload, ready to show (storage numbers for the alert). */
export interface UploadProblem {
  code: string;
  message: string;
  available?: number;
  required?: number;
}

export function uploadProblem(error: unknown): UploadProblem {
  const source = isApiError(error) ? { code: error.code, message: error.message, details: error.details } : (error as ResumableUpload['error']);
  const code = source?.code ?? ErrorCode.Unknown;
  if (code === ErrorCode.InsufficientStorage) {
    const details = (source?.details ?? {}) as { available?: number; required?: number };
    return { code, message: Messages.noStorage, available: details.available, required: details.required };
  }
  if (code === ErrorCode.NoArchiveProvided) return { code, message: source?.message || i18n.t('errors:codes.NoArchiveProvided') };
  return { code, message: source?.message || Messages.somethingWrong };
}

/** How long 'Checking available storage' stays at least, so that a fast check is still seen. */
export const STORAGE_CHECK_MIN_VISIBLE_MS = 1500;

/**
 * Spec §8/§9: 'Checking available storage', a pending notification (10 s at most), while the check
 * runs; a quick check does not wait for it, the notice just stays up for STORAGE_CHECK_MIN_VISIBLE_MS
 * (a failure replaces it at once).
 */
export async function withStorageCheck<T>(run: () => Promise<T>): Promise<T> {
  const shownAt = Date.now();
  const id = notifications.pending(Messages.checkingStorage);
  let result: T;
  try {
    result = await run();
  } catch (error) {
    // The failure's own message takes its place.
    notifications.dismiss(id);
    throw error;
  }
  const left = STORAGE_CHECK_MIN_VISIBLE_MS - (Date.now() - shownAt);
  if (left > 0) setTimeout(() => notifications.dismiss(id), left);
  else notifications.dismiss(id);
  return result;
}

/** The spec's messages for a failed storage check or token: 'No storage available', NoArchiveProvided. */
function notifyProblem(problem: UploadProblem, fallback: string) {
  if (problem.code === ErrorCode.InsufficientStorage) notifications.error(Messages.noStorage);
  else if (problem.code === ErrorCode.NoArchiveProvided) notifications.error(problem.message);
  else notifications.error(fallback);
}

function setLocal(queryClient: QueryClient, id: string, patch: Partial<Dataset> | Dataset) {
  queryClient.setQueryData<Dataset>(datasetQueryKey(id), (prev) =>
    prev ? { ...prev, ...patch, dates: { ...prev.dates, ...patch.dates }, meta: { ...prev.meta, ...patch.meta } } : prev,
  );
  datasetsList.update(id, patch);
}

/** After the last byte: POST /process. If that request fails, the dataset is Failed with error/server-offline (spec §4). */
export async function processAfterUpload(queryClient: QueryClient, id: string, name: string): Promise<void> {
  try {
    const dataset = await processDataset(id);
    queryClient.setQueryData(datasetQueryKey(id), dataset);
    datasetsList.update(id, dataset);
    // Shown only while processing runs: reading the dataset Ready or Failed dismisses it (get-dataset.ts).
    if (dataset.status === 'Loading' || dataset.status === 'Retrying')
      notifications.success(t('upload.processing', { name }), { id: processingNoticeId(id), link: { text: t('open'), path: `/datasets/${id}` } });
  } catch {
    setLocal(queryClient, id, { status: 'Failed', error: ErrorCode.ServerOffline, dates: { failed: new Date().toISOString() } as Dataset['dates'] });
    // A retry is offered right there (spec §4 Retry; the dataset page has the same button).
    notifications.error(t('upload.processFailed', { name }), {
      callback: { text: t('upload.retry'), func: () => void retryProcessing(queryClient, { id, meta: { name } }) },
    });
  }
}

/** Token (the upload's storage grant), then the resumable upload. A stored partial upload of this file resumes. */
async function startUpload(
  queryClient: QueryClient,
  uid: string,
  dataset: Pick<Dataset, 'id' | 'meta'>,
  file: File,
  token: { token: string; uploadUrl: string },
) {
  const { id } = dataset;
  const name = dataset.meta.name;
  setLocal(queryClient, id, { status: 'Uploading' });
  await startResumableUpload({
    id,
    name,
    file,
    endpoint: token.uploadUrl,
    metadata: { token: token.token, filename: file.name },
    fingerprint: fingerprintFor(id, file),
    link: `/datasets/${id}`,
    onSuccess: () => {
      setLocal(queryClient, id, { storage: { path: archivePath(uid, id, file.name), filename: file.name, bytes: file.size } });
      return processAfterUpload(queryClient, id, name);
    },
    onError: (error) => {
      const problem = uploadProblem(error);
      notifications.error(problem.code === ErrorCode.InsufficientStorage ? Messages.noStorage : t('upload.failed', { name, message: problem.message }));
    },
  });
}

/**
 * Create: storage check (nothing is created when the archive cannot fit), the dataset, its upload
 * token (a refusal removes the dataset again), then the upload runs in the background.
 * Throws an UploadProblem-bearing ApiError for the dialog to show.
 */
export async function createDatasetWithArchive(queryClient: QueryClient, uid: string, input: CreateDatasetInput, file: File): Promise<Dataset> {
  try {
    const { dataset, token } = await withStorageCheck(async () => {
      const storage = await getStorage();
      if (storage.remaining < file.size) {
        throw new ApiError(403, ErrorCode.InsufficientStorage, Messages.noStorage, { available: storage.remaining, required: file.size });
      }
      const created = await createDataset(input);
      try {
        return { dataset: created, token: await getUploadToken(archivePath(uid, created.id, file.name), file.size) };
      } catch (error) {
        // Nothing to keep: a dataset without its archive would only clutter the list and the trash.
        await deleteDataset(created.id, { hard: true }).catch(() => undefined);
        throw error;
      }
    });
    addDataset({ ...dataset, status: 'Uploading' });
    await startUpload(queryClient, uid, dataset, file, token);
    return dataset;
  } catch (error) {
    notifyProblem(uploadProblem(error), Messages.unableCreateDataset);
    throw error;
  }
}

/** Upload (or resume) the archive of an existing dataset: one that never got its archive, an interrupted one, or a fix after Failed. */
export async function uploadArchiveFor(queryClient: QueryClient, uid: string, dataset: Pick<Dataset, 'id' | 'meta'>, file: File): Promise<void> {
  try {
    const token = await withStorageCheck(() => getUploadToken(archivePath(uid, dataset.id, file.name), file.size));
    await startUpload(queryClient, uid, dataset, file, token);
  } catch (error) {
    notifyProblem(uploadProblem(error), t('upload.failed', { name: dataset.meta.name, message: uploadProblem(error).message }));
    throw error;
  }
}

/** Retry after Failed: the same archive is processed again (status Retrying). */
export async function retryProcessing(queryClient: QueryClient, dataset: { id: string; meta: Pick<Dataset['meta'], 'name'> }): Promise<void> {
  notifications.retry(t('upload.retrying', { name: dataset.meta.name }));
  await processAfterUpload(queryClient, dataset.id, dataset.meta.name);
}
