import { Badge, Button, Code, Group, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import type { AdminJob } from '@sightline/contracts';
import { useState } from 'react';
import { notifications } from '../../../lib/notifications';
import { useJobAction, useJobs, type JobFilter } from '../api/get-jobs';
import { notifyError } from '../../../lib/notify-error';
import { useAdminT } from '../i18n';

const COLORS: Record<string, string> = { queued: 'gray', claimed: 'blue', running: 'blue', failed: 'red', cancelled: 'yellow' };

/** Jobs of every kind (platform queue and GPU agents): attempts, last error, log tail, retry and cancel. */
export function JobsSection() {
  const { t } = useAdminT();
  const [filter, setFilter] = useState<JobFilter>('all');
  const jobs = useJobs(filter);
  const rows = jobs.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Stack gap="md" data-testid="admin-jobs">
      <SegmentedControl
        size="xs"
        w="fit-content"
        value={filter}
        onChange={(v) => setFilter(v as JobFilter)}
        data={(['all', 'active', 'failed'] as const).map((f) => ({ value: f, label: t(`jobs.filter.${f}`) }))}
        aria-label={t('jobs.filterLabel')}
      />
      {rows.length === 0 ? <Text c="dimmed">{jobs.isLoading ? '…' : t('jobs.empty')}</Text> : rows.map((j) => <JobCard key={`${j.source}:${j.id}`} job={j} />)}
      {jobs.hasNextPage && (
        <Button variant="light" w="fit-content" loading={jobs.isFetchingNextPage} onClick={() => void jobs.fetchNextPage()}>
          {t('loadMore')}
        </Button>
      )}
    </Stack>
  );
}

function JobCard({ job }: { job: AdminJob }) {
  const { t } = useAdminT();
  const act = useJobAction();
  // Names, not ids: what the job works on, as its owner named it.
  const subject = job.model?.name ?? job.dataset?.name ?? null;
  const run = (action: 'retry' | 'cancel') =>
    act.mutate(
      { job, action },
      {
        onSuccess: () => notifications.success(t(`jobs.${action}Done`)),
        onError: notifyError,
      },
    );
  return (
    <Paper withBorder p="md" radius="md" data-testid="admin-job">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2} style={{ minWidth: 0, flex: '1 1 240px' }}>
          <Group gap={6} wrap="wrap">
            <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }} data-testid="admin-job-title">
              {subject ? t('jobs.of', { kind: job.kind, name: subject }) : job.kind}
            </Text>
            <Badge size="sm" variant="light" color={COLORS[job.status] ?? 'gray'}>
              {job.status}
            </Badge>
            <Badge size="sm" variant="outline" color="gray">
              {t(`jobs.source.${job.source}`)}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {job.user && `${t('jobs.by', { user: job.user.username })} · `}
            {t('jobs.meta', { id: job.id, attempts: job.attempts, max: job.maxAttempts, updated: new Date(job.updated).toLocaleString() })}
          </Text>
        </Stack>
        <Group gap="xs">
          {job.canRetry && (
            <Button size="xs" variant="light" loading={act.isPending} onClick={() => run('retry')}>
              {t('jobs.retry')}
            </Button>
          )}
          {job.canCancel && (
            <Button size="xs" variant="light" color="red" loading={act.isPending} onClick={() => run('cancel')}>
              {t('jobs.cancel')}
            </Button>
          )}
        </Group>
      </Group>
      {job.lastError && (
        <Text size="sm" c="red" mt="xs" style={{ overflowWrap: 'anywhere' }}>
          {job.lastError}
        </Text>
      )}
      {job.logTail.length > 0 && (
        <Code block mt="xs" fz="xs" style={{ maxHeight: 160, overflow: 'auto', whiteSpace: 'pre' }}>
          {job.logTail.join('\n')}
        </Code>
      )}
    </Paper>
  );
}
