import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { createExportBody, ModelExport } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { exportKeys } from './export-keys';

export type CreateExportInput = z.input<typeof createExportBody>;

export const createExport = (modelId: string, input: CreateExportInput) => api.post<ModelExport>(`/v1/models/${encodeURIComponent(modelId)}/exports`, input);

export function useCreateExport(modelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateExportInput) => createExport(modelId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: exportKeys.list(modelId) }),
  });
}
