import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Messages, type Model, type updateModelBody } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { storeModel } from './model-cache';
import { tModels } from '../i18n';

export type UpdateModelBody = z.input<typeof updateModelBody>;

export const updateModel = ({ id, body }: { id: string; body: UpdateModelBody }) => api.patch<Model>(`/v1/models/${encodeURIComponent(id)}`, body);

/** 'Model Updated' with an Open link to the model (spec §8); 'Unable to Update Model' on failure. */
export const notifyModelUpdated = (model: Pick<Model, 'id'>) =>
  notifications.success(Messages.modelUpdated, { link: { text: tModels('open'), path: `/models/${model.id}` } });

export function useUpdateModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateModel,
    onSuccess: (model) => {
      storeModel(queryClient, model);
      notifyModelUpdated(model);
    },
    onError: () => notifications.error(Messages.unableUpdateModel),
  });
}
