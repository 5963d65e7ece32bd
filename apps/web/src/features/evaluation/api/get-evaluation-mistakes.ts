import { useQuery } from '@tanstack/react-query';
import type { EvaluationMistakeKind, EvaluationMistakes } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { enc, evaluationKeys } from './evaluation-keys';

/** GET /v1/evaluations/{id}/mistakes: the most confident false positives, misses or wrong classes, with their images. */
export const getEvaluationMistakes = (id: string, kind: EvaluationMistakeKind, classId: number | null, signal?: AbortSignal) =>
  api.get<EvaluationMistakes>(`/v1/evaluations/${enc(id)}/mistakes?kind=${kind}${classId === null ? '' : `&classId=${classId}`}`, signal);
export const useEvaluationMistakes = (id: string, kind: EvaluationMistakeKind, classId: number | null) =>
  useQuery({ queryKey: evaluationKeys.mistakes(id, kind, classId), queryFn: ({ signal }) => getEvaluationMistakes(id, kind, classId, signal) });
