import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { DatasetDiff as ContractDiff, DiffImage as ContractDiffImage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/**
 * An image as a diff names it (id, name, split). The thumbnail link, size and labels are drawn when the server gives
 * them; without them the tile says "No preview".
 */
export type DiffImage = ContractDiffImage & {
  width?: number | null;
  height?: number | null;
  labels?: number[][];
  className?: string | null;
  thumbUrl?: string | null;
  url?: string | null;
};

type Change = ContractDiff['labelsChanged'][number];
/** GET /v1/datasets/{id}/diff?from=&to= (ADR 0038): what changed between two versions, or a version and the working state. */
export type DatasetDiff = Omit<ContractDiff, 'added' | 'removed' | 'moved' | 'labelsChanged'> & {
  added: DiffImage[];
  removed: DiffImage[];
  moved: Array<{ image: DiffImage; fromSplit: string; toSplit: string }>;
  labelsChanged: Array<Omit<Change, 'image'> & { image: DiffImage }>;
};

/** The newer side of a diff: a version number, or the working state (the older side is always a version). */
export type DiffSide = number | 'working';

export const getDatasetDiff = (id: string, from: number, to: DiffSide, signal?: AbortSignal) =>
  api.get<DatasetDiff>(`/v1/datasets/${encodeURIComponent(id)}/diff?${new URLSearchParams({ from: String(from), to: String(to) })}`, signal);

export const useDatasetDiff = (id: string, from: number, to: DiffSide) =>
  useQuery({
    queryKey: ['datasets', id, 'diff', from, to] as const,
    queryFn: ({ signal }) => getDatasetDiff(id, from, to, signal),
    enabled: from !== to,
    placeholderData: keepPreviousData,
  });

/** The two sides of a diff. */
export interface DiffPair {
  from: number;
  to: DiffSide;
}
