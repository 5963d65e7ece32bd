import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** An image as a diff names it: enough to draw its thumbnail with its labels (no image bytes are read to make a diff). */
export interface DiffImage {
  id: string;
  name: string;
  split: string;
  width?: number | null;
  height?: number | null;
  labels?: number[][];
  className?: string | null;
  thumbUrl?: string | null;
  url?: string | null;
}

/** GET /v1/datasets/{id}/diff?from=&to= (ADR 0038): what changed between two versions, or a version and the working state. */
export interface DatasetDiff {
  added: DiffImage[];
  removed: DiffImage[];
  moved: Array<{ image: DiffImage; fromSplit: string; toSplit: string }>;
  labelsChanged: Array<{ image: DiffImage; before: number[][]; after: number[][] }>;
  classesRenamed: Array<{ index: number; from: string; to: string }>;
  classesAdded: string[];
  classesRemoved: string[];
  histogram: { from: Record<string, number>; to: Record<string, number> };
}

/** A side of a diff: a version number, or the working state. */
export type DiffSide = number | 'working';

export const getDatasetDiff = (id: string, from: DiffSide, to: DiffSide, signal?: AbortSignal) =>
  api.get<DatasetDiff>(`/v1/datasets/${encodeURIComponent(id)}/diff?${new URLSearchParams({ from: String(from), to: String(to) })}`, signal);

export const useDatasetDiff = (id: string, from: DiffSide | null, to: DiffSide | null) =>
  useQuery({
    queryKey: ['datasets', id, 'diff', from, to] as const,
    queryFn: ({ signal }) => getDatasetDiff(id, from!, to!, signal),
    enabled: from !== null && to !== null && from !== to,
    placeholderData: keepPreviousData,
  });
