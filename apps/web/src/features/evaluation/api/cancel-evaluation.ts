import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Evaluation } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { enc, evaluationKeys } from './evaluation-keys';

/** POST /v1/evaluations/{id}/cancel. */
export const cancelEvaluation = (id: string) => api.post<Evaluation>(`/v1/evaluations/${enc(id)}/cancel`);
export function useCancelEvaluation(modelId: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: cancelEvaluation,
    onSuccess: (evaluation) => {
      qc.setQueryData(evaluationKeys.one(evaluation.id), evaluation);
      void qc.invalidateQueries({ queryKey: evaluationKeys.ofModel(modelId) });
    },
  });
}
