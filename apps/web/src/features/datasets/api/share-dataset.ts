import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Dataset, Privacy } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { datasetsList } from '../stores/datasets-list';
import { datasetQueryKey } from './get-dataset';

/** POST /v1/datasets/{id}/share: privacy changes only through sharing (spec §4). */
export const shareDataset = (id: string, privacy: Privacy) => api.post<Dataset>(`/v1/datasets/${encodeURIComponent(id)}/share`, { privacy });

export function useShareDataset(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (privacy: Privacy) => shareDataset(id, privacy),
    onSuccess: (dataset) => {
      queryClient.setQueryData(datasetQueryKey(id), dataset);
      datasetsList.update(id, dataset);
      // Image links are bound to the dataset's privacy (ADR 0014): the browser needs new ones.
      void queryClient.invalidateQueries({ queryKey: ['datasets', id, 'images'] });
    },
  });
}
