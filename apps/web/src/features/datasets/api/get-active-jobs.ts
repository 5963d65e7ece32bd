import { useQuery } from '@tanstack/react-query';
import { isWaitingForFile, type Dataset } from '@sightline/contracts';
import { activeJobsQueryOptions } from '../../../lib/active-jobs';
import type { ResumableUpload } from '../../../lib/resumable-uploads';

export type { ServerUpload } from '../../../lib/active-jobs';

/** The newest server-side upload of one dataset (possibly interrupted in another tab or before a reload). */
export const useServerUpload = (datasetId: string, enabled: boolean, pollMs: number | false = false) =>
  useQuery({
    ...activeJobsQueryOptions(),
    enabled,
    refetchInterval: enabled ? pollMs : false,
    select: (jobs) => jobs.uploads.find((u) => u.datasetId === datasetId) ?? null,
  });

/**
 * A dataset Uploading that no browser is sending (a tab closed mid-upload): it waits for its file to be
 * chosen again (resume at the server's offset), and says so instead of spinning. The bytes received are
 * the server's, as /active-jobs shows them.
 */
export function useWaitingForFile(dataset: Pick<Dataset, 'id' | 'status'>, upload: ResumableUpload | undefined) {
  const sendingHere = !!upload && (upload.status === 'uploading' || upload.status === 'paused');
  const stalled = dataset.status === 'Uploading' && !sendingHere;
  const server = useServerUpload(dataset.id, stalled, 5000);
  const waiting = stalled && server.data !== undefined && (server.data === null || isWaitingForFile(server.data));
  return { waiting, received: waiting && server.data ? { offset: server.data.offset, bytes: server.data.bytes } : null };
}
