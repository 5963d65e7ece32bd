import { useQuery } from '@tanstack/react-query';
import { activeJobsQueryOptions } from '../../../lib/active-jobs';

export type { ActiveJobs, ProcessingJob, ServerUpload } from '../../../lib/active-jobs';

export const useActiveJobs = (refetchInterval: number | false) => useQuery({ ...activeJobsQueryOptions(), refetchInterval, staleTime: 0 });
