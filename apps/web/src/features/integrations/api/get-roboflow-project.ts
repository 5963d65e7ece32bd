import { queryOptions, useQuery } from '@tanstack/react-query';
import type { RoboflowProjectDetail } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys, projectPath } from './keys';

export const getRoboflowProject = (ws: string, project: string, signal?: AbortSignal) => api.get<RoboflowProjectDetail>(projectPath(ws, project), signal);
export const roboflowProjectQueryOptions = (ws: string, project: string) =>
  queryOptions({ queryKey: integrationKeys.project(ws, project), queryFn: ({ signal }) => getRoboflowProject(ws, project, signal), retry: false });
export const useRoboflowProject = (ws: string, project: string) => useQuery(roboflowProjectQueryOptions(ws, project));
