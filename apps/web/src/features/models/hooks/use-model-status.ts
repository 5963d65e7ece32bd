import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { modelStatus, type Model, type ModelStatus, topics } from '@sightline/contracts';
import { modelKeys, projectKeys } from '../../../lib/query-keys';
import { realtime } from '../../../lib/realtime';
import { useNow } from '../../../lib/use-now';

/** Re-computed every 30 s, so the Training → Timeout and Initializing → Timeout boundaries move on their own. */
export const STATUS_TICK_MS = 30_000;

/**
 * Spec §4 status of a model, computed from its dates and its run's state (ADR 0020: Stopped, Failed,
 * Timeout as the server decided them), never the HUB `status` field. Header, lists and the training
 * panel all call modelStatus() with the same inputs, so they agree.
 */
export function useModelStatus(dates: Model['dates'] | null | undefined, run?: Model['training']): ModelStatus {
  const settled = modelStatus(dates, Date.now(), run);
  const now = useNow(STATUS_TICK_MS, settled !== 'Trained' && settled !== 'Status' && settled !== 'Stopped' && settled !== 'Failed');
  return modelStatus(dates, now, run);
}

/**
 * Spec §4: a model not yet Trained gets a live listener on `model:<id>`; each event refetches it
 * (and the lists that show it). Trained stops the listener.
 */
export function useModelWatch(model: Pick<Model, 'id' | 'project'> | undefined, status: ModelStatus, enabled = true): void {
  const queryClient = useQueryClient();
  const id = model?.id;
  const projectId = model?.project.id ?? null;
  const watch = enabled && Boolean(id) && status !== 'Trained';
  useEffect(() => {
    if (!watch || !id) return;
    return realtime.subscribe(topics.model(id), () => {
      void queryClient.invalidateQueries({ queryKey: modelKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: modelKeys.all, exact: true });
      if (projectId) void queryClient.invalidateQueries({ queryKey: projectKeys.models(projectId) });
    });
  }, [watch, id, projectId, queryClient]);
}
