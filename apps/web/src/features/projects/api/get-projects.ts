import { queryOptions, useQuery } from '@tanstack/react-query';
import { getListOrEmpty } from '../../../lib/list-endpoint';

/** Minimal shape read by the shell until the projects feature brings its contract. */
export interface ProjectSummary {
  id: string;
  meta?: { name?: string };
  dates?: { updated?: string | null; created?: string | null };
}

export const getProjects = (signal?: AbortSignal) => getListOrEmpty<ProjectSummary>('/v1/projects', signal);

export const projectsQueryOptions = () => queryOptions({ queryKey: ['projects'] as const, queryFn: ({ signal }) => getProjects(signal) });

export const useProjects = () => useQuery(projectsQueryOptions());
