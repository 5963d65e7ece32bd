import { useState } from 'react';
import { Alert, Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IconPlayerPlay, IconRefresh, IconUpload } from '@tabler/icons-react';
import { formatBytes, type Dataset } from '@sightline/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { storedUploadProgress } from '../../../lib/resumable-uploads';
import { useServerUpload } from '../api/get-active-jobs';
import { retryCanHelp } from '@sightline/contracts/dataset-layout';
import { checkArchive, type ArchiveCheck } from '../archive-check/check-archive';
import { useDatasetsT } from '../i18n';
import { fingerprintPrefix, processAfterUpload, uploadArchiveFor, uploadProblem, type UploadProblem } from '../upload/dataset-upload';
import { ArchiveCheckResult } from './archive-check-result';
import { UploadProblemAlert } from './upload-problem-alert';

/**
 * The archive of a dataset that is not uploading in this browser: none yet (Initiating), an upload
 * interrupted by a reload or a closed tab (Uploading: choosing the same file resumes at the server's
 * offset), an archive that arrived but was never processed, or a fixed archive after Failed.
 */
export function ArchiveUploadPanel({ dataset, uid }: { dataset: Dataset; uid: string }) {
  const { t } = useDatasetsT();
  const queryClient = useQueryClient();
  const interrupted = dataset.status === 'Uploading';
  const server = useServerUpload(dataset.id, interrupted);
  // This browser knows the upload URL of its own interrupted upload: the server's offset for it is exact.
  const stored = useQuery({
    queryKey: ['datasets', dataset.id, 'stored-upload'],
    queryFn: () => storedUploadProgress(fingerprintPrefix(dataset.id)),
    enabled: interrupted,
    staleTime: 0,
  });
  const [check, setCheck] = useState<{ checking: boolean; result: ArchiveCheck | null }>({ checking: false, result: null });
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const [busy, setBusy] = useState(false);
  const arrived = !!dataset.dates.uploaded && (dataset.status === 'Uploading' || dataset.status === 'Initiating');
  const fromServer =
    server.data && server.data.status === 'uploading' && server.data.offset < server.data.bytes
      ? { filename: server.data.filename, offset: server.data.offset, bytes: server.data.bytes }
      : null;
  const fromBrowser =
    stored.data && stored.data.offset < stored.data.size
      ? { filename: stored.data.filename ?? fromServer?.filename ?? '', offset: stored.data.offset, bytes: stored.data.size }
      : null;
  const partial = interrupted ? (fromBrowser ?? fromServer) : null;

  const choose = async (file: File | null) => {
    if (!file) return;
    setProblem(null);
    setCheck({ checking: true, result: null });
    const result = await checkArchive(file, dataset.task).catch(() => null);
    setCheck({ checking: false, result });
    if (result?.status === 'blocked') return;
    setBusy(true);
    try {
      await uploadArchiveFor(queryClient, uid, dataset, file);
    } catch (error) {
      setProblem(uploadProblem(error));
    } finally {
      setBusy(false);
    }
  };

  const process = async () => {
    setBusy(true);
    await processAfterUpload(queryClient, dataset.id, dataset.meta.name);
    setBusy(false);
  };

  const title = arrived
    ? t('panel.arrivedTitle')
    : partial
      ? t('panel.interruptedTitle')
      : dataset.status === 'Failed'
        ? t('panel.fixTitle')
        : t('panel.noArchiveTitle');
  const body = arrived
    ? t('panel.arrivedBody', { name: dataset.storage.filename ?? '' })
    : partial
      ? t('panel.interruptedBody', { name: partial.filename, sent: formatBytes(partial.offset), total: formatBytes(partial.bytes) })
      : dataset.status === 'Failed'
        ? t(retryCanHelp(dataset.error) ? 'panel.fixBody' : 'panel.fixBodyArchive')
        : t('panel.noArchiveBody');

  return (
    <Alert
      variant="light"
      color={dataset.status === 'Failed' ? 'red' : 'brand'}
      title={title}
      data-testid="archive-panel"
      icon={partial ? <IconPlayerPlay size={18} /> : <IconUpload size={18} />}
    >
      <Stack gap="sm">
        <Text size="sm">{body}</Text>
        {partial && (
          <Progress value={(partial.offset / partial.bytes) * 100} size="sm" radius="xl" color="yellow" aria-label={t('panel.interruptedProgress')} />
        )}
        <ArchiveCheckResult checking={check.checking} result={check.result} />
        {problem && <UploadProblemAlert problem={problem} onClose={() => setProblem(null)} />}
        <Group gap="sm">
          {arrived ? (
            <Button leftSection={<IconRefresh size={16} aria-hidden />} onClick={() => void process()} loading={busy}>
              {t('panel.process')}
            </Button>
          ) : (
            <FileButton
              onChange={(file) => void choose(file)}
              accept=".zip,.tar,application/zip,application/x-tar"
              inputProps={{ 'aria-label': t('panel.chooseLabel') }}
            >
              {(props) => (
                <Button
                  {...props}
                  leftSection={partial ? <IconPlayerPlay size={16} aria-hidden /> : <IconUpload size={16} aria-hidden />}
                  loading={busy || check.checking}
                  data-testid="choose-archive"
                >
                  {partial ? t('panel.resume') : dataset.status === 'Failed' ? t('panel.uploadFixed') : t('panel.upload')}
                </Button>
              )}
            </FileButton>
          )}
        </Group>
      </Stack>
    </Alert>
  );
}
