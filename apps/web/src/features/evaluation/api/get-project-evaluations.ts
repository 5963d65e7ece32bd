import { useQuery } from '@tanstack/react-query';
import type { ProjectEvaluations } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { enc, evaluationKeys } from './evaluation-keys';

/** GET /v1/projects/{id}/evaluations: per model and dataset split, the newest completed evaluation (compare). */
export const getProjectEvaluations = (projectId: string, signal?: AbortSignal) =>
  api.get<ProjectEvaluations>(`/v1/projects/${enc(projectId)}/evaluations`, signal);
export const useProjectEvaluations = (projectId: string) =>
  useQuery({ queryKey: evaluationKeys.ofProject(projectId), queryFn: ({ signal }) => getProjectEvaluations(projectId, signal) });
