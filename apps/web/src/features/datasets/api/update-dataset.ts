import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Dataset, updateDatasetBody } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { datasetsList } from '../stores/datasets-list';
import { datasetQueryKey } from './get-dataset';

export type UpdateDatasetInput = z.input<typeof updateDatasetBody>;

export const updateDataset = (id: string, input: UpdateDatasetInput) => api.patch<Dataset>(`/v1/datasets/${encodeURIComponent(id)}`, input);

export function useUpdateDataset(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateDatasetInput) => updateDataset(id, input),
    onSuccess: (dataset) => {
      queryClient.setQueryData(datasetQueryKey(id), dataset);
      datasetsList.update(id, dataset);
    },
  });
}
