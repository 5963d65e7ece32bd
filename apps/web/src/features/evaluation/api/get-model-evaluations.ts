import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Evaluation } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { enc, evaluationKeys } from './evaluation-keys';

/** GET /v1/models/{id}/evaluations: the model's evaluations on datasets the caller reads, newest first. */
export const getModelEvaluations = (modelId: string, signal?: AbortSignal) => api.get<Evaluation[]>(`/v1/models/${enc(modelId)}/evaluations`, signal);
export const modelEvaluationsQuery = (modelId: string) =>
  queryOptions({ queryKey: evaluationKeys.ofModel(modelId), queryFn: ({ signal }) => getModelEvaluations(modelId, signal) });
export const useModelEvaluations = (modelId: string) => useQuery(modelEvaluationsQuery(modelId));
