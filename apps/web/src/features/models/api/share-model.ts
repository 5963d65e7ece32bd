import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Messages, type Model, type Privacy } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { storeModel } from './model-cache';
import { notifyModelUpdated } from './update-model';

export const shareModel = ({ id, privacy }: { id: string; privacy: Privacy }) => api.post<Model>(`/v1/models/${encodeURIComponent(id)}/share`, { privacy });

export function useShareModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: shareModel,
    onSuccess: (model) => {
      storeModel(queryClient, model);
      notifyModelUpdated(model);
    },
    // Spec §8: share failures read 'Unable to Update Model'.
    onError: () => notifications.error(Messages.unableUpdateModel),
  });
}
