import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Project } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { projectKeys } from '../../../lib/query-keys';

/** One project; readable signed out when unlisted or public. */
export const getProject = (id: string, signal?: AbortSignal) => api.get<Project>(`/v1/projects/${encodeURIComponent(id)}`, signal);

export const projectQueryOptions = (id: string) => queryOptions({ queryKey: projectKeys.detail(id), queryFn: ({ signal }) => getProject(id, signal) });

export const useProject = (id: string) => useQuery(projectQueryOptions(id));
