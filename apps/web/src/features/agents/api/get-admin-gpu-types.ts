import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GpuType } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { agentKeys } from './agent-keys';

export const getAdminGpuTypes = (signal?: AbortSignal) => api.get<GpuType[]>('/v1/admin/gpu-types', signal);
export const adminGpuTypesQueryOptions = () => queryOptions({ queryKey: agentKeys.adminGpuTypes, queryFn: ({ signal }) => getAdminGpuTypes(signal) });
export const useAdminGpuTypes = () => useQuery({ ...adminGpuTypesQueryOptions(), refetchInterval: 5000 });
