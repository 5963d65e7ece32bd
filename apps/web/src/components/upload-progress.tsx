import { ActionIcon, Group, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IconPlayerPause, IconPlayerPlay, IconX } from '@tabler/icons-react';
import { formatBytes } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { pauseUpload, resumeUpload, type ResumableUpload } from '../lib/resumable-uploads';

/** Progress of a resumable upload in this browser, with pause and resume (spec §3 Upload: progress, paused). */
export function UploadProgress({ upload, onCancel, size = 'md' }: { upload: ResumableUpload; onCancel?: () => void; size?: 'sm' | 'md' }) {
  const { t } = useTranslation();
  const percent = Math.floor(upload.progress * 100);
  const running = upload.status === 'uploading';
  const paused = upload.status === 'paused';
  return (
    <Stack gap={4} data-testid="upload-progress" data-status={upload.status}>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size={size === 'sm' ? 'xs' : 'sm'} c="dimmed" truncate>
          {paused ? t('upload.paused') : upload.status === 'error' ? t('upload.failed') : upload.status === 'done' ? t('upload.done') : t('upload.uploading')}
          {' · '}
          {t('upload.bytes', { sent: formatBytes(upload.bytesSent), total: formatBytes(upload.bytesTotal) })}
        </Text>
        <Group gap={2} wrap="nowrap">
          <Text size={size === 'sm' ? 'xs' : 'sm'} fw={600} data-testid="upload-percent" aria-hidden>
            {percent}%
          </Text>
          {(running || paused) && (
            <Tooltip label={running ? t('upload.pause') : t('upload.resume')} withArrow>
              <ActionIcon
                variant="subtle"
                size={size === 'sm' ? 'sm' : 'md'}
                aria-label={`${running ? t('upload.pause') : t('upload.resume')} ${upload.filename}`}
                onClick={(event) => {
                  event.preventDefault();
                  event.stopPropagation();
                  if (running) pauseUpload(upload.id);
                  else resumeUpload(upload.id);
                }}
              >
                {running ? <IconPlayerPause size={16} /> : <IconPlayerPlay size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
          {onCancel && (running || paused) && (
            <Tooltip label={t('upload.cancel')} withArrow>
              <ActionIcon
                variant="subtle"
                color="red"
                size={size === 'sm' ? 'sm' : 'md'}
                aria-label={`${t('upload.cancel')} ${upload.filename}`}
                onClick={onCancel}
              >
                <IconX size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      <Progress
        value={percent}
        size={size === 'sm' ? 'sm' : 'md'}
        radius="xl"
        color={upload.status === 'error' ? 'red' : paused ? 'yellow' : 'brand'}
        striped={running}
        animated={running}
        aria-label={t('upload.progressOf', { name: upload.filename })}
      />
    </Stack>
  );
}
