import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Dataset, Model, Project } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { teamKeys } from './keys';

export interface TeamItems {
  datasets: Dataset[];
  projects: Project[];
  models: Model[];
}

/** The team's datasets, projects and models. */
export const getTeamItems = (id: string, signal?: AbortSignal) => api.get<TeamItems>(`/v1/teams/${encodeURIComponent(id)}/items`, signal);

export const useTeamItems = (id: string, enabled = true) =>
  useQuery(queryOptions({ queryKey: teamKeys.items(id), queryFn: ({ signal }) => getTeamItems(id, signal), enabled }));
