import type { DatasetReport } from '@sightline/contracts';
import type { Split } from '@sightline/contracts/dataset-layout';
import { api } from '../../../lib/api-client';

const base = (id: string) => `/v1/datasets/${encodeURIComponent(id)}`;

export interface AddImagesResult {
  added: number;
  report: DatasetReport;
}

/** POST /v1/datasets/{id}/images: images (with .txt labels of the same stem) and zips into a split, checked with the upload rules. */
export function addDatasetImages(id: string, split: Split, files: File[]) {
  const form = new FormData();
  form.append('split', split);
  for (const file of files) form.append('files', file, file.name);
  return api.post<AddImagesResult>(`${base(id)}/images`, form);
}

export const moveDatasetImages = (id: string, imageIds: string[], split: Split) => api.post<unknown>(`${base(id)}/images/move`, { imageIds, split });

/** To a split of the same dataset, or into another dataset the user can edit. */
export const copyDatasetImages = (id: string, imageIds: string[], target: { split?: Split; datasetId?: string }) =>
  api.post<unknown>(`${base(id)}/images/copy`, { imageIds, ...target });

export const deleteDatasetImages = (id: string, imageIds: string[]) => api.post<unknown>(`${base(id)}/images/delete`, { imageIds });

/** Class edits rewrite every label of the working state (ADR 0037). */
export const renameDatasetClass = (id: string, from: number, to: string) => api.post<unknown>(`${base(id)}/classes/rename`, { from, to });
export const mergeDatasetClasses = (id: string, from: number[], into: number) => api.post<unknown>(`${base(id)}/classes/merge`, { from, into });
export const deleteDatasetClass = (id: string, cls: number) => api.post<unknown>(`${base(id)}/classes/delete`, { class: cls, labels: 'remove' });
