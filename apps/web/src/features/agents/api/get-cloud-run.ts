import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CloudRun } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** The model's latest cloud run (owner only): status, epochs charged, hold and cost so far. */
export const getCloudRun = (modelId: string, signal?: AbortSignal) => api.get<CloudRun | null>(`/v1/models/${encodeURIComponent(modelId)}/cloud`, signal);
export const cloudRunQueryOptions = (modelId: string) =>
  queryOptions({ queryKey: agentKeys.cloudRun(modelId), queryFn: ({ signal }) => getCloudRun(modelId, signal) });

const active = (run: CloudRun | null | undefined) => Boolean(run && ['queued', 'claimed', 'running'].includes(run.job.status));
export const useCloudRun = (modelId: string, enabled = true) =>
  useQuery({ ...cloudRunQueryOptions(modelId), enabled, refetchInterval: (q) => (active(q.state.data) ? 2000 : false) });
export const isRunActive = active;
