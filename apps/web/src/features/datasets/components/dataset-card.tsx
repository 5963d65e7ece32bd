import { Button, Card, Group, Progress, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconDatabase, IconPhoto, IconPlayerPlay, IconTags } from '@tabler/icons-react';
import { formatBytes, type Dataset } from '@sightline/contracts';
import { Link } from 'react-router';
import { ArchivedBadge } from '../../../components/archive-controls';
import { PrivacyBadge } from '../../../components/privacy-badge';
import { TeamBadge } from '../../../components/team-badge';
import { UploadProgress } from '../../../components/upload-progress';
import { useResumableUpload } from '../../../lib/resumable-uploads';
import { useWaitingForFile } from '../api/get-active-jobs';
import { useDatasetsT } from '../i18n';
import { DatasetStatusBadge, processingPercent } from './dataset-status-badge';
import { TaskBadge } from './task-badge';
import classes from './dataset-card.module.css';

function Previews({ dataset }: { dataset: Dataset }) {
  const previews = dataset.previews.slice(0, 4);
  if (previews.length === 0) {
    return (
      <div className={classes.previewEmpty}>
        <ThemeIcon variant="light" size={48} radius="xl" color="gray">
          <IconDatabase size={26} aria-hidden />
        </ThemeIcon>
      </div>
    );
  }
  return (
    <div className={classes.previews} data-count={previews.length} data-testid="dataset-previews">
      {previews.map((src) => (
        <img key={src} src={src} alt="" loading="lazy" decoding="async" />
      ))}
    </div>
  );
}

/** A dataset in the list: previews, status (with upload or processing progress), task, size, classes. */
export function DatasetCard({ dataset }: { dataset: Dataset }) {
  const { t } = useDatasetsT();
  const upload = useResumableUpload(dataset.id);
  const uploading = upload && (upload.status === 'uploading' || upload.status === 'paused');
  const processing = dataset.status === 'Loading' || dataset.status === 'Retrying';
  const percent = processingPercent(dataset.progress);
  const { waiting, received } = useWaitingForFile(dataset, upload);
  return (
    <Card withBorder radius="md" padding={0} className={classes.card} data-testid="dataset-card" data-id={dataset.id}>
      <Link to={`/datasets/${dataset.id}`} className={classes.link} aria-label={t('card.open', { name: dataset.meta.name })}>
        <Previews dataset={dataset} />
      </Link>
      <Stack gap={8} p="md">
        <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
          <Text
            component={Link}
            to={`/datasets/${dataset.id}`}
            fw={600}
            lineClamp={2}
            title={dataset.meta.name}
            className={classes.title}
            style={{ overflowWrap: 'anywhere' }}
            data-testid="dataset-name"
          >
            {dataset.meta.name}
          </Text>
          <DatasetStatusBadge status={dataset.status} progress={dataset.progress} upload={upload} waiting={waiting} size="sm" />
        </Group>
        {dataset.meta.description ? (
          <Text size="sm" c="dimmed" lineClamp={2} mih={40}>
            {dataset.meta.description}
          </Text>
        ) : (
          <Text size="sm" c="dimmed" fs="italic" mih={40}>
            {t('card.noDescription')}
          </Text>
        )}
        {uploading && <UploadProgress upload={upload} size="sm" />}
        {waiting && (
          <Group justify="space-between" gap="xs" wrap="nowrap" data-testid="waiting-for-file">
            <Text size="xs" c="dimmed">
              {received ? t('card.received', { sent: formatBytes(received.offset), total: formatBytes(received.bytes) }) : t('card.nothingReceived')}
            </Text>
            {dataset.abilities.canEdit && (
              <Button
                component={Link}
                to={`/datasets/${dataset.id}`}
                size="compact-xs"
                variant="light"
                leftSection={<IconPlayerPlay size={12} aria-hidden />}
                aria-label={t('card.resumeLabel', { name: dataset.meta.name })}
              >
                {t('card.resume')}
              </Button>
            )}
          </Group>
        )}
        {!uploading && processing && (
          <Tooltip
            label={dataset.progress?.phase ? t(`phase.${dataset.progress.phase}`, { defaultValue: dataset.progress.phase }) : t('status.Loading')}
            withArrow
          >
            <Progress
              value={percent ?? 100}
              striped
              animated
              size="sm"
              radius="xl"
              color="indigo"
              aria-label={t('card.processing', { name: dataset.meta.name })}
            />
          </Tooltip>
        )}
        {dataset.status === 'Failed' && dataset.error && (
          <Text size="xs" c="red.8" lineClamp={2} title={dataset.error}>
            {dataset.error}
          </Text>
        )}
        <Group gap={6} wrap="wrap">
          <TaskBadge task={dataset.task} size="sm" />
          <PrivacyBadge privacy={dataset.meta.privacy} />
          {dataset.dates.archived && <ArchivedBadge />}
          <TeamBadge teamId={dataset.team.id} name={dataset.team.name} />
        </Group>
        <Group gap="md" c="dimmed" wrap="wrap">
          <Group gap={4} wrap="nowrap">
            <IconPhoto size={14} aria-hidden />
            <Text size="xs">{t('card.images', { count: dataset.stats?.images ?? 0 })}</Text>
          </Group>
          <Group gap={4} wrap="nowrap">
            <IconTags size={14} aria-hidden />
            <Text size="xs">{t('card.classes', { count: dataset.stats?.classCount ?? 0 })}</Text>
          </Group>
          <Text size="xs">{formatBytes(dataset.storage.bytes || upload?.bytesTotal || received?.bytes || 0)}</Text>
        </Group>
      </Stack>
    </Card>
  );
}
