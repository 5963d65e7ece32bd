import { Badge, Button } from '@mantine/core';
import { IconActivity } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useResumableUploads } from '../../../lib/resumable-uploads';
import { useActiveJobs } from '../api/get-active-jobs';
import { useTrainingRuns } from '../api/get-training-runs';

const POLL_MS = 15_000;

/**
 * Shown in the header while something runs (an upload in this browser, dataset processing, a
 * training run queued or running): a link to /active-jobs with how many. Nothing when idle.
 */
export function ActiveJobsLink({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  const uploads = useResumableUploads().filter((u) => u.status === 'uploading').length;
  const processing = useActiveJobs(POLL_MS).data?.processing.length ?? 0;
  const runs = (useTrainingRuns(POLL_MS).data ?? []).filter((r) => r.outcome === 'queued' || r.outcome === 'running').length;
  const count = uploads + processing + runs;
  if (!count) return null;
  const label = t('activeJobs.running', { count });
  return (
    <Button
      component={Link}
      to="/active-jobs"
      variant={compact ? 'subtle' : 'light'}
      color={compact ? 'gray.3' : 'indigo'}
      size="compact-sm"
      leftSection={<IconActivity size={16} aria-hidden />}
      rightSection={
        <Badge size="sm" circle color="indigo" data-testid="active-jobs-count">
          {count}
        </Badge>
      }
      aria-label={label}
      title={label}
      data-testid="active-jobs-link"
    >
      {compact ? null : t('nav.activeJobs')}
    </Button>
  );
}
