import { queryOptions, useQuery } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api-client';

/** A model's proposals for one image (ADR 0039): kept apart from the labels until accepted. */
export interface Suggestion {
  id: string;
  /** YOLO rows as labels are (normalised), without the confidence. */
  rows: number[][];
  conf: number[];
  /** Classify: the proposed class of the whole image (its confidence is `conf[0]`); rows are empty then. */
  className: string | null;
}
interface WireSuggestion {
  id: string;
  labels?: Array<number[] | { row?: number[]; conf?: number }>;
  rows?: number[][];
  conf?: number[] | number;
  className?: string | null;
  status?: string;
}

/**
 * Rows come as `[cls, ...coords, conf]` or as `{ row, conf }`; a row has the label's length plus one when it carries
 * its confidence (detect 6, pose 5 + keypoints + 1, segment an even length).
 */
export function splitConfidence(row: number[], task: string): { row: number[]; conf: number | null } {
  const hasConf = task === 'segment' ? row.length % 2 === 0 : task === 'detect' ? row.length === 6 : false;
  return hasConf ? { row: row.slice(0, -1), conf: row[row.length - 1]! } : { row, conf: null };
}

export function readSuggestions(data: unknown, task: string): Suggestion[] {
  const list = (Array.isArray(data) ? data : ((data as { suggestions?: unknown[] } | null)?.suggestions ?? [])) as WireSuggestion[];
  return list
    .filter((s) => !s.status || s.status === 'pending')
    .map((s) => {
      const rows: number[][] = [];
      const conf: number[] = [];
      for (const r of s.rows ?? s.labels ?? []) {
        const split = Array.isArray(r) ? splitConfidence(r, task) : { row: r.row ?? [], conf: r.conf ?? null };
        rows.push(split.row);
        conf.push(split.conf ?? (typeof s.conf === 'number' ? s.conf : Array.isArray(s.conf) ? s.conf[rows.length - 1] : undefined) ?? 1);
      }
      const className = s.className ?? null;
      if (className && !rows.length) conf.push(Array.isArray(s.conf) ? (s.conf[0] ?? 1) : (s.conf ?? 1));
      return { id: s.id, rows, conf, className };
    })
    .filter((s) => s.rows.length > 0 || s.className !== null);
}

export const suggestionsQueryKey = (datasetId: string, imageId: string) => ['datasets', datasetId, 'suggestions', imageId] as const;

/** `GET /v1/datasets/:id/images/:imageId/suggestions`; a server without pre-labelling (404) has none. */
export const useSuggestions = (datasetId: string, imageId: string | undefined, task: string) =>
  useQuery(
    queryOptions({
      queryKey: suggestionsQueryKey(datasetId, imageId ?? ''),
      queryFn: ({ signal }) =>
        api
          .get<unknown>(`/v1/datasets/${encodeURIComponent(datasetId)}/images/${encodeURIComponent(imageId ?? '')}/suggestions`, signal)
          .then((data) => readSuggestions(data, task))
          .catch((error: unknown) => {
            if (isApiError(error) && error.status === 404) return [];
            throw error;
          }),
      enabled: !!imageId,
      staleTime: 30_000,
    }),
  );
