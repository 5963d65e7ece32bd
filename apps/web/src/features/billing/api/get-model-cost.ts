import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ModelCost } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { billingKeys } from './billing-keys';

/** What a model's training cost: its billing records and ledger entries (owner only). */
export const getModelCost = (modelId: string, signal?: AbortSignal) => api.get<ModelCost>(`/v1/billing/models/${encodeURIComponent(modelId)}/cost`, signal);

export const modelCostQueryOptions = (modelId: string) =>
  queryOptions({ queryKey: billingKeys.modelCost(modelId), queryFn: ({ signal }) => getModelCost(modelId, signal), retry: false });

export const useModelCost = (modelId: string, enabled: boolean) => useQuery({ ...modelCostQueryOptions(modelId), enabled });
