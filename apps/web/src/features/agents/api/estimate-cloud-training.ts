import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CloudEstimate, CloudTrainingBody } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** Cost estimate (and whether the wallet allows it) for a cloud run of a model. */
export const estimateCloudTraining = (modelId: string, body: CloudTrainingBody) =>
  api.post<CloudEstimate>(`/v1/models/${encodeURIComponent(modelId)}/cloud/estimate`, body);

export const useCloudEstimate = (modelId: string, body: CloudTrainingBody | null) =>
  useQuery({
    queryKey: agentKeys.estimate(modelId, body),
    queryFn: () => estimateCloudTraining(modelId, body!),
    enabled: Boolean(body?.gpuType),
    placeholderData: keepPreviousData,
  });
