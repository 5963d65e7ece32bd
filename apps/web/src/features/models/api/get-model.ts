import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { modelKeys } from '../../../lib/query-keys';

/** One model; readable signed out when it (or its project) is unlisted or public. */
export const getModel = (id: string, signal?: AbortSignal) => api.get<Model>(`/v1/models/${encodeURIComponent(id)}`, signal);

export const modelQueryOptions = (id: string) => queryOptions({ queryKey: modelKeys.detail(id), queryFn: ({ signal }) => getModel(id, signal) });

export const useModel = (id: string) => useQuery(modelQueryOptions(id));
