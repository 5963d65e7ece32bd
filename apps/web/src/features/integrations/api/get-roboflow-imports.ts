import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RoboflowImport } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

const active = (i: RoboflowImport) =>
  i.status === 'queued' ||
  i.status === 'exporting' ||
  i.status === 'downloading' ||
  (i.status === 'imported' && i.dataset !== null && i.dataset.status !== 'Ready' && i.dataset.status !== 'Failed');

/** The user's imports; polled every second while one is running (progress bars). */
export const getRoboflowImports = (signal?: AbortSignal) => api.get<RoboflowImport[]>('/v1/integrations/roboflow/imports', signal);
export const roboflowImportsQueryOptions = () =>
  queryOptions({
    queryKey: integrationKeys.imports(),
    queryFn: ({ signal }) => getRoboflowImports(signal),
    refetchInterval: (q) => (q.state.data?.some(active) ? 1000 : false),
  });
export const useRoboflowImports = () => useQuery(roboflowImportsQueryOptions());
export const isImportActive = active;
