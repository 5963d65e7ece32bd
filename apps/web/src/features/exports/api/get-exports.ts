import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ModelExports } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { exportKeys } from './export-keys';

/** A model's exports, newest first, and how many agents could run one now. */
export const getExports = (modelId: string, signal?: AbortSignal) => api.get<ModelExports>(`/v1/models/${encodeURIComponent(modelId)}/exports`, signal);

export const exportsQueryOptions = (modelId: string) =>
  queryOptions({ queryKey: exportKeys.list(modelId), queryFn: ({ signal }) => getExports(modelId, signal) });

/** Polls while something is queued or running (realtime also invalidates it). */
export const useExports = (modelId: string) =>
  useQuery({
    ...exportsQueryOptions(modelId),
    enabled: Boolean(modelId),
    refetchInterval: (q) => (q.state.data?.exports.some((e) => e.status === 'queued' || e.status === 'claimed' || e.status === 'running') ? 3000 : false),
  });
