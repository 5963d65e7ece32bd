import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Project } from '@sightline/contracts';
import { fetchAllPages } from '../../../lib/paged-list';
import { projectKeys } from '../../../lib/query-keys';

/** Lists hide deleted and archived items (spec §4). */
export const isListedProject = (p: Pick<Project, 'dates'>) => !p.dates.deleted && !p.dates.archived;

/** All of the signed-in user's projects, most recently updated first. */
export const getProjects = async (signal?: AbortSignal) => (await fetchAllPages<Project>('/v1/projects', {}, signal)).filter(isListedProject);

export const projectsQueryOptions = () => queryOptions({ queryKey: projectKeys.all, queryFn: ({ signal }) => getProjects(signal) });

export const useProjects = () => useQuery(projectsQueryOptions());

/** The list with archived projects too (the "Show archived" filter), newest first; deleted ones stay out. */
export const PROJECTS_WITH_ARCHIVED = ['projects-with-archived'] as const;
export const useProjectsWithArchived = (enabled: boolean) =>
  useQuery({
    queryKey: PROJECTS_WITH_ARCHIVED,
    queryFn: async ({ signal }) => (await fetchAllPages<Project>('/v1/projects', { includeArchived: 'true' }, signal)).filter((p) => !p.dates.deleted),
    enabled,
  });
