import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Project } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { fetchAllPages } from '../../../lib/paged-list';
import { projectKeys } from '../../../lib/query-keys';

/** The user's projects to put a new model in. */
export const getTrainingProjects = async (signal?: AbortSignal) =>
  (await fetchAllPages<Project>('/v1/projects', {}, signal)).filter((p) => !p.dates.deleted && !p.dates.archived);

export const trainingProjectsQueryOptions = () =>
  queryOptions({ queryKey: ['training', 'projects'] as const, queryFn: ({ signal }) => getTrainingProjects(signal) });

export const useTrainingProjects = (enabled = true) => useQuery({ ...trainingProjectsQueryOptions(), enabled });

/** A project created inline by the train dialog. */
export const createTrainingProject = (name: string) => api.post<Project>('/v1/projects', { meta: { name } });

export function useCreateTrainingProject() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTrainingProject,
    onSuccess: (project) => {
      queryClient.setQueryData<Project[]>(trainingProjectsQueryOptions().queryKey, (list) => [project, ...(list ?? [])]);
      // The projects feature's list shows it too.
      void queryClient.invalidateQueries({ queryKey: projectKeys.all, exact: true });
    },
  });
}

/** One project, for its slug in the `project=` argument of the training command. */
export const getTrainingProject = (id: string, signal?: AbortSignal) => api.get<Project>(`/v1/projects/${encodeURIComponent(id)}`, signal);

export const useTrainingProject = (id: string | null | undefined) =>
  useQuery({ queryKey: ['training', 'project', id ?? ''] as const, queryFn: ({ signal }) => getTrainingProject(id!, signal), enabled: Boolean(id) });
