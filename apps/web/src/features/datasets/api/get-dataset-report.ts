import { queryOptions, useQuery } from '@tanstack/react-query';
import type { DatasetReport } from '@sightline/contracts';
import { api } from '../../../lib/api-client';

export const getDatasetReport = (id: string, signal?: AbortSignal) => api.get<DatasetReport | null>(`/v1/datasets/${encodeURIComponent(id)}/report`, signal);

/** The plain-text report, downloaded as a file by the browser. */
export const datasetReportTextUrl = (id: string) => `/v1/datasets/${encodeURIComponent(id)}/report?format=txt`;

export const datasetReportQueryOptions = (id: string) =>
  queryOptions({ queryKey: ['datasets', id, 'report'] as const, queryFn: ({ signal }) => getDatasetReport(id, signal) });

export const useDatasetReport = (id: string, enabled = true) => useQuery({ ...datasetReportQueryOptions(id), enabled });
