import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Model } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { projectKeys } from '../../../lib/query-keys';
import { tProjects } from '../i18n';

/** Drag-to-reorder in projects you own; the server numbers them from 1 (spec §3). */
export const reorderProjectModels = ({ projectId, modelIds }: { projectId: string; modelIds: string[] }) =>
  api.put<unknown>(`/v1/projects/${encodeURIComponent(projectId)}/order`, { modelIds });

/** Moves one item of a list from one index to another. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const next = list.slice();
  const [item] = next.splice(from, 1);
  next.splice(Math.max(0, Math.min(to, next.length)), 0, item as T);
  return next;
}

/** Optimistic: the list shows the new order at once and goes back if the server refuses. */
export function useReorderProjectModels() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: reorderProjectModels,
    onMutate: async ({ projectId, modelIds }) => {
      const key = projectKeys.models(projectId);
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData<Model[]>(key);
      if (previous) {
        const byId = new Map(previous.map((m) => [m.id, m]));
        const ordered = modelIds.map((id, i) => ({ ...byId.get(id)!, order: i + 1 })).filter((m) => m.id);
        queryClient.setQueryData<Model[]>(key, ordered);
      }
      return { previous };
    },
    onError: (_error, { projectId }, context) => {
      if (context?.previous) queryClient.setQueryData(projectKeys.models(projectId), context.previous);
      notifications.error(tProjects('messages.reorderFailed'));
    },
    onSettled: (_data, _error, { projectId }) => queryClient.invalidateQueries({ queryKey: projectKeys.models(projectId) }),
  });
}
