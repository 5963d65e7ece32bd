import { queryOptions, useQuery } from '@tanstack/react-query';
import { inferenceUsageSchema, type InferenceUsage } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export type { InferenceUsage } from '@sightline/contracts';

/**
 * GET /v1/users/me/inference-usage, read through the contract's schema: an answer of another shape
 * (an older server) is a query error the card can show, not a crash.
 */
export async function getInferenceUsage(signal?: AbortSignal): Promise<InferenceUsage> {
  return inferenceUsageSchema.parse(await api.get<unknown>('/v1/users/me/inference-usage', signal));
}

export const inferenceUsageQueryOptions = () =>
  queryOptions({ queryKey: ['inference-usage'] as const, queryFn: ({ signal }) => getInferenceUsage(signal), staleTime: 10_000 });

export const useInferenceUsage = () => useQuery(inferenceUsageQueryOptions());
