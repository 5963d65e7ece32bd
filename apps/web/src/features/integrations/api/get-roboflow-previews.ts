import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RoboflowPreview } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys, projectPath } from './keys';

/** Five preview images (spec §7: limit 5) with their boxes. */
export const getRoboflowPreviews = (ws: string, project: string, signal?: AbortSignal) =>
  api.get<RoboflowPreview[]>(`${projectPath(ws, project)}/previews`, signal);
export const roboflowPreviewsQueryOptions = (ws: string, project: string) =>
  queryOptions({
    queryKey: integrationKeys.previews(ws, project),
    queryFn: ({ signal }) => getRoboflowPreviews(ws, project, signal),
    staleTime: 5 * 60_000,
    retry: false,
  });
export const useRoboflowPreviews = (ws: string, project: string, enabled = true) => useQuery({ ...roboflowPreviewsQueryOptions(ws, project), enabled });
