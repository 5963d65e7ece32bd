import { useQuery } from '@tanstack/react-query';
import { activeJobsQueryOptions } from '../../../lib/active-jobs';

export type { ServerUpload } from '../../../lib/active-jobs';

/** The newest server-side upload of one dataset (possibly interrupted in another tab or before a reload). */
export const useServerUpload = (datasetId: string, enabled: boolean) =>
  useQuery({ ...activeJobsQueryOptions(), enabled, select: (jobs) => jobs.uploads.find((u) => u.datasetId === datasetId) ?? null });
