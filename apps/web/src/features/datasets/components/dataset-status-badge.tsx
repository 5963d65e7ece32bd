import { Badge, Loader, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconCheck, IconClockPause } from '@tabler/icons-react';
import type { Dataset } from '@sightline/contracts';
import type { ResumableUpload } from '../../../lib/resumable-uploads';
import { useDatasetsT } from '../i18n';

/** Dark shades, so the text of a light badge keeps 4.5:1 contrast on its tint. */
const COLORS: Record<string, string> = {
  Initiating: '#495057',
  Uploading: '#0b54d9',
  Loading: '#3b44b8',
  Retrying: '#a34a00',
  Ready: '#1f7a35',
  Failed: '#c02626',
  'No Version': '#8a5a00',
  'No Images': '#8a5a00',
};

/** Percent of the processing job, or null while it has no total yet. */
export function processingPercent(progress: Dataset['progress']): number | null {
  if (!progress || !progress.total) return null;
  return Math.min(100, Math.floor((progress.done / progress.total) * 100));
}

/**
 * Status of spec §4 (Initiating → Uploading → Loading → Ready; Retrying; Failed), with the upload's
 * percent while this browser sends the archive and the processing percent while the server loads it.
 */
export function DatasetStatusBadge({
  status,
  progress,
  upload,
  waiting = false,
  size = 'md',
}: {
  status: string;
  progress?: Dataset['progress'];
  upload?: ResumableUpload;
  waiting?: boolean;
  size?: 'sm' | 'md' | 'lg';
}) {
  const { t } = useDatasetsT();
  if (waiting) {
    // An interrupted upload no browser is sending: nothing is happening until the file is chosen again.
    return (
      <Badge
        size={size}
        variant="light"
        color="#8a5a00"
        data-testid="dataset-status"
        data-status={status}
        data-waiting="true"
        leftSection={<IconClockPause size={12} aria-hidden />}
      >
        {t('status.WaitingForFile')}
      </Badge>
    );
  }
  const uploading = upload && (upload.status === 'uploading' || upload.status === 'paused');
  const shown = uploading ? 'Uploading' : status;
  const percent = uploading ? Math.floor(upload.progress * 100) : shown === 'Loading' || shown === 'Retrying' ? processingPercent(progress ?? null) : null;
  const active = ['Initiating', 'Uploading', 'Loading', 'Retrying'].includes(shown) && !(uploading && upload.status === 'paused');
  const label = t(`status.${shown}`, { defaultValue: shown });
  const text = uploading && upload.status === 'paused' ? t('status.UploadPaused', { percent }) : percent !== null ? `${label} ${percent}%` : label;
  const badge = (
    <Badge
      size={size}
      variant="light"
      color={COLORS[shown] ?? 'gray'}
      data-testid="dataset-status"
      data-status={shown}
      leftSection={
        active ? (
          <Loader size={10} color={COLORS[shown]} type="oval" aria-hidden />
        ) : shown === 'Ready' ? (
          <IconCheck size={12} aria-hidden />
        ) : shown === 'Failed' ? (
          <IconAlertTriangle size={12} aria-hidden />
        ) : null
      }
    >
      {text}
    </Badge>
  );
  if ((shown === 'Loading' || shown === 'Retrying') && progress?.phase) {
    return (
      <Tooltip label={t(`phase.${progress.phase}`, { defaultValue: progress.phase })} withArrow>
        {badge}
      </Tooltip>
    );
  }
  return badge;
}
