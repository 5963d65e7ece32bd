import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateEvaluationBody, Evaluation } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { enc, evaluationKeys } from './evaluation-keys';

/** POST /v1/models/{id}/evaluations: starts one (202) or answers the stored result of the same files (200). */
export const createEvaluation = (modelId: string, body: CreateEvaluationBody) => api.post<Evaluation>(`/v1/models/${enc(modelId)}/evaluations`, body);
export function useCreateEvaluation(modelId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateEvaluationBody) => createEvaluation(modelId, body),
    onSuccess: (evaluation) => {
      qc.setQueryData(evaluationKeys.one(evaluation.id), evaluation);
      void qc.invalidateQueries({ queryKey: evaluationKeys.ofModel(modelId) });
    },
  });
}
