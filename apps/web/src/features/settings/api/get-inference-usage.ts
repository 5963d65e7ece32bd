import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export interface InferenceUsage {
  /** `YYYY-MM` */
  month: string;
  total: number;
  limits: { perHour: number; perMonth: number };
  /** `apiKeyId` null: calls made from the web app with the session. */
  perKey: Array<{ apiKeyId: string | null; name: string; prefix: string; count: number }>;
}

export async function getInferenceUsage(signal?: AbortSignal): Promise<InferenceUsage> {
  const usage = await api.get<InferenceUsage | undefined>('/v1/users/me/inference-usage', signal);
  // No contract schema for this answer yet: refuse a shape the card cannot draw instead of crashing it.
  if (!usage?.limits || !Array.isArray(usage.perKey)) throw new Error('Unexpected inference usage answer');
  return usage;
}

export const inferenceUsageQueryOptions = () => queryOptions({ queryKey: ['inference-usage'] as const, queryFn: ({ signal }) => getInferenceUsage(signal), staleTime: 10_000 });

export const useInferenceUsage = () => useQuery(inferenceUsageQueryOptions());
