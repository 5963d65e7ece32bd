import type { EvaluationMistakeKind } from '@sightline/contracts';

/** Query keys of the evaluation feature (one place, so realtime events invalidate the right ones). */
export const evaluationKeys = {
  all: ['evaluations'] as const,
  ofModel: (modelId: string) => ['evaluations', 'model', modelId] as const,
  one: (id: string) => ['evaluations', 'one', id] as const,
  mistakes: (id: string, kind: EvaluationMistakeKind, classId: number | null) => ['evaluations', 'mistakes', id, kind, classId] as const,
  ofProject: (projectId: string) => ['evaluations', 'project', projectId] as const,
};

export const enc = encodeURIComponent;
