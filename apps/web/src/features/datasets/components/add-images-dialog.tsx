import { useState } from 'react';
import { Alert, Button, FileInput, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCircleCheck, IconPhotoPlus } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { Dataset } from '@sightline/contracts';
import type { Split } from '@sightline/contracts/dataset-layout';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';
import { addDatasetImages, type AddImagesResult } from '../api/edit-dataset-images';
import { datasetQueryKey } from '../api/get-dataset';
import { useDatasetsT } from '../i18n';
import { ReportTable } from './report-table';

const SPLITS: Split[] = ['train', 'val', 'test'];
/** Images, their YOLO label files (same stem) and zips of both: checked by the server with the upload rules (ADR 0029). */
export const ADD_ACCEPT = 'image/*,.txt,.zip';

/** Adds images to a split of the working state and shows what the server kept and left out, as the upload report does. */
export function AddImagesDialog({ dataset, opened, onClose }: { dataset: Dataset; opened: boolean; onClose: () => void }) {
  const { t } = useDatasetsT();
  const queryClient = useQueryClient();
  const [split, setSplit] = useState<Split>('train');
  const [files, setFiles] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<AddImagesResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setFiles([]);
    setResult(null);
    setError(null);
    onClose();
  };
  const submit = async () => {
    if (files.length === 0) {
      setError(t('add.noFiles'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const added = await addDatasetImages(dataset.id, split, files);
      setResult(added);
      setFiles([]);
      await queryClient.invalidateQueries({ queryKey: datasetQueryKey(dataset.id) });
    } catch (err) {
      setError(isApiError(err) ? errorMessage(err.code, err.message) : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={close} title={t('add.title')} size={result ? 'xl' : 'md'} centered>
      <Stack>
        {result ? (
          <>
            <Alert
              color={result.added > 0 ? 'green' : 'yellow'}
              variant="light"
              icon={<IconCircleCheck size={18} />}
              title={t('add.added', { count: result.added, split: t(`splits.${split}`) })}
              data-testid="add-result"
            >
              {result.report.errorCount + (result.report.leftOutCount ?? 0) + result.report.warningCount > 0 ? t('add.reportBelow') : t('add.clean')}
            </Alert>
            {result.report.errorCount + (result.report.leftOutCount ?? 0) + result.report.warningCount > 0 && <ReportTable report={result.report} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setResult(null)}>
                {t('add.more')}
              </Button>
              <Button onClick={close}>{t('add.done')}</Button>
            </Group>
          </>
        ) : (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <Stack>
              <Text size="sm" c="dimmed">
                {t('add.body')}
              </Text>
              <Stack gap={4}>
                <Text size="sm" fw={500} id="add-split-label">
                  {t('add.split')}
                </Text>
                <SegmentedControl
                  value={split}
                  onChange={(v) => setSplit(v as Split)}
                  data={SPLITS.map((s) => ({ value: s, label: t(`splits.${s}`) }))}
                  aria-labelledby="add-split-label"
                  data-testid="add-split"
                />
              </Stack>
              <FileInput
                label={t('add.files')}
                placeholder={t('add.choose')}
                multiple
                clearable
                accept={ADD_ACCEPT}
                value={files}
                onChange={(v) => setFiles(v)}
                leftSection={<IconPhotoPlus size={16} aria-hidden />}
                error={error}
                data-testid="add-files"
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={close}>
                  {t('versions.cancel')}
                </Button>
                <Button type="submit" loading={busy} data-testid="add-submit">
                  {t('add.submit', { count: files.length })}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Stack>
    </Modal>
  );
}
