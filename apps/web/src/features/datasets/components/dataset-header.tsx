import { useState, type ReactNode } from 'react';
import { ActionIcon, Avatar, Button, Group, Menu, Paper, Progress, SimpleGrid, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconArchive, IconDatabase, IconDots, IconDownload, IconPencil, IconRefresh, IconTrash, IconVectorTriangle } from '@tabler/icons-react';
import { formatBytes, type Dataset } from '@sightline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { ArchivedNotice, useArchiveToggle } from '../../../components/archive-controls';
import { ItemTitle } from '../../../components/item-title';
import { PrivacyBadge } from '../../../components/privacy-badge';
import { UploadProgress } from '../../../components/upload-progress';
import { notifications } from '../../../lib/notifications';
import { useResumableUpload } from '../../../lib/resumable-uploads';
import { setDatasetArchived } from '../api/archive-dataset';
import { datasetQueryKey } from '../api/get-dataset';
import { getDatasetDownload } from '../api/get-dataset-download';
import { useDeleteDataset } from '../hooks/use-delete-dataset';
import { useDatasetsT } from '../i18n';
import { datasetsList } from '../stores/datasets-list';
import { retryProcessing } from '../upload/dataset-upload';
import { useWaitingForFile } from '../api/get-active-jobs';
import { retryCanHelp } from '@sightline/contracts/dataset-layout';
import { DatasetStatusBadge, processingPercent } from './dataset-status-badge';
import { EditDatasetDialog } from './edit-dataset-dialog';
import { ShareMenu } from './share-menu';
import { TaskBadge } from './task-badge';

function Fact({ label, value, testId }: { label: string; value: ReactNode; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" fw={500} data-testid={testId} truncate title={typeof value === 'string' ? value : undefined}>
        {value}
      </Text>
    </div>
  );
}

/** Name, status, task, size, classes, owner and what the viewer may do (from the server's abilities). */
export function DatasetHeader({ dataset }: { dataset: Dataset }) {
  const { t } = useDatasetsT();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const upload = useResumableUpload(dataset.id);
  const { remove } = useDeleteDataset();
  const [editing, setEditing] = useState(false);
  const [retrying, setRetrying] = useState(false);
  const [downloading, setDownloading] = useState(false);
  const { canEdit, canDelete, canShare } = dataset.abilities;
  const { t: tc } = useTranslation();
  // Archiving (spec §4 dates.archived) takes the right to delete: both take the dataset out of the lists.
  const archive = useArchiveToggle(dataset.meta.name, async (archived) => {
    const updated = await setDatasetArchived(dataset.id, archived);
    queryClient.setQueryData(datasetQueryKey(dataset.id), updated);
    datasetsList.update(dataset.id, updated);
  });
  const uploading = upload && (upload.status === 'uploading' || upload.status === 'paused');
  const processing = dataset.status === 'Loading' || dataset.status === 'Retrying';
  const percent = processingPercent(dataset.progress);
  const { waiting } = useWaitingForFile(dataset, upload);

  const download = async () => {
    setDownloading(true);
    try {
      const { url } = await getDatasetDownload(dataset.id);
      window.location.assign(url);
    } catch {
      notifications.error(t('header.downloadFailed'));
    } finally {
      setDownloading(false);
    }
  };
  const retry = async () => {
    setRetrying(true);
    await retryProcessing(queryClient, dataset);
    setRetrying(false);
  };

  return (
    <Paper withBorder radius="md" p="lg" data-testid="dataset-header">
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <Group wrap="nowrap" align="flex-start" gap="md" style={{ flex: '1 1 260px', minWidth: 0 }}>
            {dataset.image ? (
              <Avatar src={dataset.image} size={64} radius="md" alt="" />
            ) : (
              <ThemeIcon size={64} radius="md" variant="light">
                <IconDatabase size={32} aria-hidden />
              </ThemeIcon>
            )}
            <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
              <ItemTitle name={dataset.meta.name} fz={{ base: 22, sm: 24 }} data-testid="dataset-title" />
              {dataset.meta.description && (
                <Text c="dimmed" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {dataset.meta.description}
                </Text>
              )}
              <Group gap={6} wrap="wrap">
                <DatasetStatusBadge status={dataset.status} progress={dataset.progress} upload={upload} waiting={waiting} />
                <TaskBadge task={dataset.task} />
                <PrivacyBadge privacy={dataset.meta.privacy} />
              </Group>
            </Stack>
          </Group>
          <Group gap="xs">
            {dataset.status === 'Failed' && canEdit && dataset.storage.path && retryCanHelp(dataset.error) && (
              <Button
                color="red"
                variant="light"
                leftSection={<IconRefresh size={16} aria-hidden />}
                onClick={() => void retry()}
                loading={retrying}
                data-testid="retry"
              >
                {t('header.retry')}
              </Button>
            )}
            {canEdit && dataset.status === 'Ready' && (
              <Button
                component={Link}
                to={`/datasets/${encodeURIComponent(dataset.id)}/annotate`}
                variant="default"
                leftSection={<IconVectorTriangle size={16} aria-hidden />}
                data-testid="annotate"
              >
                {t('header.annotate')}
              </Button>
            )}
            {dataset.storage.path && (
              <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => void download()} loading={downloading}>
                {t('header.download')}
              </Button>
            )}
            {canShare && <ShareMenu dataset={dataset} />}
            {(canEdit || canDelete) && (
              <Menu position="bottom-end" withinPortal shadow="md">
                <Menu.Target>
                  <Tooltip label={t('header.more')} withArrow>
                    <ActionIcon variant="default" size={36} aria-label={t('header.more')}>
                      <IconDots size={18} />
                    </ActionIcon>
                  </Tooltip>
                </Menu.Target>
                <Menu.Dropdown>
                  {canEdit && (
                    <Menu.Item leftSection={<IconPencil size={16} aria-hidden />} onClick={() => setEditing(true)}>
                      {t('header.edit')}
                    </Menu.Item>
                  )}
                  {canDelete && (
                    <Menu.Item
                      leftSection={<IconArchive size={16} aria-hidden />}
                      onClick={() => archive.mutate(!dataset.dates.archived)}
                      data-testid="archive-toggle"
                    >
                      {dataset.dates.archived ? tc('archive.unarchive') : tc('archive.archive')}
                    </Menu.Item>
                  )}
                  {canDelete && (
                    <Menu.Item
                      color="red"
                      leftSection={<IconTrash size={16} aria-hidden />}
                      onClick={() =>
                        void remove(dataset).then((ok) => {
                          if (ok) navigate('/datasets');
                        })
                      }
                    >
                      {t('header.delete')}
                    </Menu.Item>
                  )}
                </Menu.Dropdown>
              </Menu>
            )}
          </Group>
        </Group>
        {dataset.dates.archived && <ArchivedNotice canUnarchive={canDelete} loading={archive.isPending} onUnarchive={() => archive.mutate(false)} />}
        <SimpleGrid cols={{ base: 2, xs: 3, md: 6 }} spacing="md" verticalSpacing="sm">
          <Fact label={t('header.size')} value={formatBytes(dataset.storage.bytes || upload?.bytesTotal || 0)} testId="fact-size" />
          <Fact label={t('header.images')} value={(dataset.stats?.images ?? 0).toLocaleString()} testId="fact-images" />
          <Fact label={t('header.classes')} value={dataset.stats ? `${dataset.stats.classCount}` : '—'} testId="fact-classes" />
          <Fact label={t('header.owner')} value={dataset.owner.username ? `@${dataset.owner.username}` : '—'} testId="fact-owner" />
          <Fact label={t('header.updated')} value={new Date(dataset.dates.updated).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })} />
          {dataset.storage.filename && <Fact label={t('header.archive')} value={dataset.storage.filename} />}
        </SimpleGrid>
        {uploading && <UploadProgress upload={upload} />}
        {!uploading && processing && (
          <Stack gap={4} data-testid="processing-progress">
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                {dataset.progress?.phase ? t(`phase.${dataset.progress.phase}`, { defaultValue: dataset.progress.phase }) : t('phase.queued')}
                {dataset.progress?.total
                  ? ` · ${t('header.progressCount', { done: dataset.progress.done.toLocaleString(), total: dataset.progress.total.toLocaleString() })}`
                  : ''}
              </Text>
              {percent !== null && (
                <Text size="sm" fw={600}>
                  {percent}%
                </Text>
              )}
            </Group>
            <Progress value={percent ?? 100} striped animated color="indigo" radius="xl" aria-label={t('header.processing')} />
          </Stack>
        )}
      </Stack>
      {canEdit && <EditDatasetDialog dataset={dataset} opened={editing} onClose={() => setEditing(false)} />}
    </Paper>
  );
}
