import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Messages, type createModelBody, type Model } from '@sightline/contracts';
import type { z } from 'zod';
import { api, isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { addModel, refreshModelContainers } from './model-cache';

export type CreateModelBody = z.input<typeof createModelBody>;

/** POST /v1/models {meta, project:{id}, config, dataset, lineage}: the spec §3 defaults fill the rest. */
export const createModel = (body: CreateModelBody) => api.post<Model>('/v1/models', body);

/** 'Unable to Create Model'; a 'Missing Required Properties: …' answer is surfaced with it (spec §5, §8). */
export function createModelErrorMessage(error: unknown): string {
  return isApiError(error, 'error/missing-required-properties') ? `${Messages.unableCreateModel}. ${error.message}` : Messages.unableCreateModel;
}

export function useCreateModel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createModel,
    onSuccess: async (model) => {
      addModel(queryClient, model);
      await refreshModelContainers(queryClient, model.project.id);
    },
    onError: (error) => notifications.error(createModelErrorMessage(error)),
  });
}
