import { Alert, Anchor, Badge, Button, Card, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import { IconActivity, IconPlayerPlay, IconRefresh, IconX } from '@tabler/icons-react';
import { formatBytes, modelStatus } from '@sightline/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { UploadProgress } from '../../../components/upload-progress';
import { cancelUpload, dismissUpload, useResumableUploads, type ResumableUpload } from '../../../lib/resumable-uploads';
import { ActiveImportCard, useActiveImports } from '../../integrations';
import { useActiveJobs, type ProcessingJob, type ServerUpload } from '../api/get-active-jobs';
import { useTrainingRuns, type ActiveRun } from '../api/get-training-runs';
import { ModelStatusBadge, runReason } from '../../models';
import { useNow } from '../../../lib/use-now';
import { useJobsT } from '../i18n';

function Section({ title, hint, children, testId }: { title: string; hint?: string; children: ReactNode; testId: string }) {
  return (
    <section aria-label={title} data-testid={testId}>
      <Title order={2} fz="lg" mb={4}>
        {title}
      </Title>
      {hint && (
        <Text size="sm" c="dimmed" mb="sm">
          {hint}
        </Text>
      )}
      <Stack gap="sm">{children}</Stack>
    </section>
  );
}

function BrowserUpload({ upload }: { upload: ResumableUpload }) {
  const { t } = useJobsT();
  return (
    <Card withBorder radius="md" data-testid="job-upload" data-id={upload.id}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <div style={{ minWidth: 0 }}>
          {upload.link ? (
            <Anchor component={Link} to={upload.link} fw={600} aria-label={t('open', { name: upload.name })}>
              {upload.name}
            </Anchor>
          ) : (
            <Text fw={600}>{upload.name}</Text>
          )}
          <Text size="xs" c="dimmed" truncate>
            {upload.filename} · {t('started', { time: new Date(upload.startedAt).toLocaleTimeString() })}
          </Text>
        </div>
        {(upload.status === 'done' || upload.status === 'error') && (
          <Button size="xs" variant="subtle" leftSection={<IconX size={14} aria-hidden />} onClick={() => dismissUpload(upload.id)}>
            {t('dismiss')}
          </Button>
        )}
      </Group>
      <UploadProgress upload={upload} onCancel={() => void cancelUpload(upload.id)} />
      {upload.status === 'done' && (
        <Text size="sm" c="green.8" mt={6}>
          {t('done')}
        </Text>
      )}
      {upload.status === 'error' && upload.error && (
        <Text size="sm" c="red.8" mt={6}>
          {t('failed', { message: upload.error.message })}
        </Text>
      )}
    </Card>
  );
}

function InterruptedUpload({ upload }: { upload: ServerUpload }) {
  const { t } = useJobsT();
  const percent = upload.bytes ? (upload.offset / upload.bytes) * 100 : 0;
  return (
    <Card withBorder radius="md" data-testid="job-interrupted">
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={600} truncate>
            {upload.filename}
          </Text>
          <Text size="xs" c="dimmed">
            {t('received', { sent: formatBytes(upload.offset), total: formatBytes(upload.bytes) })} ·{' '}
            {t('started', { time: new Date(upload.created).toLocaleString() })}
          </Text>
        </div>
        {upload.datasetId && (
          <Button component={Link} to={`/datasets/${upload.datasetId}`} size="xs" variant="light" leftSection={<IconPlayerPlay size={14} aria-hidden />}>
            {t('resume')}
          </Button>
        )}
      </Group>
      <Progress
        value={percent}
        color="yellow"
        radius="xl"
        size="sm"
        aria-label={t('received', { sent: formatBytes(upload.offset), total: formatBytes(upload.bytes) })}
      />
    </Card>
  );
}

function Processing({ job }: { job: ProcessingJob }) {
  const { t } = useJobsT();
  const total = job.progress?.total ?? 0;
  const done = job.progress?.done ?? 0;
  const percent = total ? Math.floor((done / total) * 100) : null;
  return (
    <Card withBorder radius="md" data-testid="job-processing" data-id={job.datasetId}>
      <Group justify="space-between" wrap="nowrap" mb="xs">
        <div style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/datasets/${job.datasetId}`} fw={600} aria-label={t('open', { name: job.name })}>
            {job.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {t(`phase.${job.progress?.phase ?? 'queued'}`, { defaultValue: job.progress?.phase ?? '' })}
            {total ? ` · ${t('count', { done, total })}` : ''}
            {job.attempts > 1 ? ` · ${t('attempt', { n: job.attempts })}` : ''}
          </Text>
        </div>
        <Badge variant="light" color={job.status === 'Retrying' ? 'orange' : 'indigo'} leftSection={<Loader size={10} color="indigo" aria-hidden />}>
          {job.status}
          {percent !== null ? ` ${percent}%` : ''}
        </Badge>
      </Group>
      <Progress value={percent ?? 100} striped animated color="indigo" radius="xl" size="sm" aria-label={job.name} />
      {job.lastError && (
        <Text size="xs" c="red.8" mt={6}>
          {t('lastError', { message: job.lastError })}
        </Text>
      )}
    </Card>
  );
}

/** A training run: the same status as the model header and lists (modelStatus with the run, ADR 0020), and why it ended. */
function TrainingRun({ run, now }: { run: ActiveRun; now: number }) {
  const { t } = useJobsT();
  const status = modelStatus(run.dates, now, run);
  const reason = runReason(status, run);
  return (
    <Card withBorder radius="md" data-testid="job-training" data-id={run.id} data-status={status}>
      <Group justify="space-between" wrap="nowrap" mb={reason ? 'xs' : 0}>
        <div style={{ minWidth: 0 }}>
          <Anchor component={Link} to={`/models/${run.id}?tab=training`} fw={600} aria-label={t('open', { name: run.name })}>
            {run.name}
          </Anchor>
          <Text size="xs" c="dimmed">
            {run.outcome === 'queued' ? t('runQueued') : t('runEpochs', { done: run.epochsDone, total: run.epochsTotal ?? '?' })}
          </Text>
        </div>
        <ModelStatusBadge status={status} size="sm" />
      </Group>
      {reason && (
        <Text size="sm" c={status === 'Failed' ? 'red.8' : 'dimmed'} data-testid="job-training-reason">
          {reason}
        </Text>
      )}
    </Card>
  );
}

/** /active-jobs: uploads in this browser (pause, resume, cancel), partial uploads on the server, Roboflow imports, processing jobs. */
export default function ActiveJobsPage() {
  const { t } = useJobsT();
  const local = useResumableUploads();
  const busy = local.some((u) => u.status === 'uploading');
  const jobs = useActiveJobs(3000);
  const liveIds = new Set(local.filter((u) => u.status !== 'error').map((u) => u.id));
  const interrupted = (jobs.data?.uploads ?? []).filter((u) => u.status === 'uploading' && u.offset < u.bytes && !(u.datasetId && liveIds.has(u.datasetId)));
  const processing = jobs.data?.processing ?? [];
  const imports = useActiveImports();
  const runs = useTrainingRuns(5000).data ?? [];
  const now = useNow(30_000, runs.length > 0);
  const nothing = local.length === 0 && interrupted.length === 0 && processing.length === 0 && imports.length === 0 && runs.length === 0;

  return (
    <Stack gap="xl">
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button variant="default" leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void jobs.refetch()} loading={jobs.isFetching && !busy}>
            {t('refresh')}
          </Button>
        }
      />
      {jobs.isError && (
        <Alert color="red" variant="light">
          {t('loadFailed')}
        </Alert>
      )}
      {local.length > 0 && (
        <Section title={t('browserUploads')} hint={t('browserUploadsHint')} testId="browser-uploads">
          {local.map((u) => (
            <BrowserUpload key={u.id} upload={u} />
          ))}
        </Section>
      )}
      {interrupted.length > 0 && (
        <Section title={t('interrupted')} hint={t('interruptedHint')} testId="interrupted-uploads">
          {interrupted.map((u) => (
            <InterruptedUpload key={u.id} upload={u} />
          ))}
        </Section>
      )}
      {imports.length > 0 && (
        <Section title={t('imports')} hint={t('importsHint')} testId="roboflow-imports">
          {imports.map((i) => (
            <ActiveImportCard key={i.id} item={i} />
          ))}
        </Section>
      )}
      {processing.length > 0 && (
        <Section title={t('processing')} testId="processing-jobs">
          {processing.map((j) => (
            <Processing key={j.datasetId} job={j} />
          ))}
        </Section>
      )}
      {runs.length > 0 && (
        <Section title={t('training')} hint={t('trainingHint')} testId="training-runs">
          {runs.map((r) => (
            <TrainingRun key={r.id} run={r} now={now} />
          ))}
        </Section>
      )}
      {nothing && !jobs.isPending && <EmptyState icon={<IconActivity size={28} />} title={t('emptyTitle')} description={t('emptyBody')} />}
      {nothing && jobs.isPending && (
        <Group justify="center" py="xl">
          <Loader aria-label={t('title')} />
        </Group>
      )}
    </Stack>
  );
}
