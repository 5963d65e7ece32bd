import type { QueryClient } from '@tanstack/react-query';
import type { StartupSection } from '@sightline/contracts';
import { datasetsQueryOptions } from '../features/datasets/api/get-datasets';
import { modelsQueryOptions } from '../features/models/api/get-models';
import { projectsQueryOptions } from '../features/projects/api/get-projects';
import { teamsQueryOptions } from '../features/teams/api/get-teams';

/** Each section is initialized by fetching its list into the query cache. */
export function startupLoaders(queryClient: QueryClient): Record<StartupSection, () => Promise<unknown>> {
  return {
    team: () => queryClient.fetchQuery(teamsQueryOptions()),
    dataset: () => queryClient.fetchQuery(datasetsQueryOptions()),
    project: () => queryClient.fetchQuery(projectsQueryOptions()),
    model: () => queryClient.fetchQuery(modelsQueryOptions()),
  };
}
