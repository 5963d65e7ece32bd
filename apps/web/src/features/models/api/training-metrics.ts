import { queryOptions, useQuery } from '@tanstack/react-query';
import type { EpochMetrics } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

/** One epoch as the client reported it: `epoch` (0-based) plus flat metric keys (`metrics/mAP50(B)`, `train/box_loss`, …). */
export type { EpochMetrics } from '@sightline/contracts';

export const getTrainingMetrics = (modelId: string, signal?: AbortSignal) =>
  api.get<EpochMetrics[]>(`/v1/models/${encodeURIComponent(modelId)}/metrics`, signal);

export const trainingMetricsQueryOptions = (modelId: string) =>
  queryOptions({ queryKey: ['training', modelId, 'metrics'] as const, queryFn: ({ signal }) => getTrainingMetrics(modelId, signal) });

/** `refetchInterval` is the fallback while realtime events are not arriving. */
export const useTrainingMetrics = (modelId: string, options: { enabled?: boolean; refetchInterval?: number | false } = {}) =>
  useQuery({ ...trainingMetricsQueryOptions(modelId), ...options });
