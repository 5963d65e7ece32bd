import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ActiveRun } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export type { ActiveRun } from '@sightline/contracts';

/** GET /v1/training/runs: the caller's training runs, live or ended Stopped/Failed in the last day (ADR 0020). */
export const trainingRunsQueryOptions = () =>
  queryOptions({ queryKey: ['training-runs'] as const, queryFn: ({ signal }) => api.get<ActiveRun[]>('/v1/training/runs', signal) });

export const useTrainingRuns = (refetchInterval: number | false) => useQuery({ ...trainingRunsQueryOptions(), refetchInterval, staleTime: 0 });
