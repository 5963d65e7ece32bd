import { useQuery } from '@tanstack/react-query';
import type { Evaluation } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { enc, evaluationKeys } from './evaluation-keys';

/** GET /v1/evaluations/{id}: one evaluation with its result once completed. */
export const getEvaluation = (id: string, signal?: AbortSignal) => api.get<Evaluation>(`/v1/evaluations/${enc(id)}`, signal);
export const useEvaluation = (id: string | null) =>
  useQuery({ queryKey: evaluationKeys.one(id ?? ''), queryFn: ({ signal }) => getEvaluation(id!, signal), enabled: Boolean(id) });
