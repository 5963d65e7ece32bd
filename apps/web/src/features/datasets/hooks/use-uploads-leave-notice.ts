import { useEffect } from 'react';
import { Messages } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { resumableUploads } from '../../../lib/resumable-uploads';
import { useDatasetsT } from '../i18n';

/**
 * Leaving the page where uploads were started while they still run (spec §8): 'Files still
 * uploading' with a View link to /active-jobs. The uploads go on in the background.
 */
export function useUploadsLeaveNotice(path: string) {
  const { t } = useDatasetsT();
  useEffect(() => {
    return () => {
      // Cleanup also runs on a re-render in development; only a real navigation away counts.
      const to = window.location.pathname;
      if (to === path || to === '/active-jobs') return;
      if (resumableUploads.running().length === 0) return;
      notifications.pending(Messages.filesStillUploading, { id: 'files-still-uploading', link: { text: t('leave.view'), path: '/active-jobs' } });
    };
  }, [path, t]);
}
