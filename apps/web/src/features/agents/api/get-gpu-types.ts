import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GpuType } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

/** GPU types users can pick for cloud training, with the shared-pool agents online for each. */
export const getGpuTypes = (signal?: AbortSignal) => api.get<GpuType[]>('/v1/gpu-types', signal);
export const gpuTypesQueryOptions = () => queryOptions({ queryKey: agentKeys.gpuTypes, queryFn: ({ signal }) => getGpuTypes(signal) });
export const useGpuTypes = (enabled = true) => useQuery({ ...gpuTypesQueryOptions(), enabled });
