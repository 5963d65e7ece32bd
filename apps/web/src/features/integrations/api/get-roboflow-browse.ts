import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RoboflowBrowse } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

/** Projects of every linked workspace and subscription, read from Roboflow through the server. */
export const getRoboflowBrowse = (signal?: AbortSignal) => api.get<RoboflowBrowse>('/v1/integrations/roboflow/browse', signal);
export const roboflowBrowseQueryOptions = () =>
  queryOptions({ queryKey: integrationKeys.browse(), queryFn: ({ signal }) => getRoboflowBrowse(signal), staleTime: 60_000 });
export const useRoboflowBrowse = (enabled: boolean) => useQuery({ ...roboflowBrowseQueryOptions(), enabled });
