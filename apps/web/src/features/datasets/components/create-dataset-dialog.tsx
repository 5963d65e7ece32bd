import { useEffect, useRef, useState, type FormEvent } from 'react';
import { Button, CloseButton, Group, Modal, Paper, Select, Stack, Text, Textarea, TextInput, ThemeIcon } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconFileZip, IconUpload, IconX } from '@tabler/icons-react';
import { DATASET_TASKS_UI, ErrorCode, formatBytes } from '@sightline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import i18n from '../../../lib/i18n';
import { useMe } from '../../../lib/auth';
import { useStorage } from '../api/get-storage';
import { archiveFormat, checkArchive, type ArchiveCheck } from '../archive-check/check-archive';
import { useDatasetsT } from '../i18n';
import { createDatasetWithArchive, uploadProblem, type UploadProblem } from '../upload/dataset-upload';
import { ArchiveCheckResult } from './archive-check-result';
import { UploadProblemAlert } from './upload-problem-alert';
import '@mantine/dropzone/styles.css';

const ACCEPT = { 'application/zip': ['.zip'], 'application/x-zip-compressed': ['.zip'], 'application/x-tar': ['.tar'] };
const stem = (filename: string) => filename.replace(/\.(zip|tar)$/i, '');

/**
 * Create a dataset from an archive: pick it (the zip's structure is checked here, before any byte is
 * sent), choose the task, name it; then the storage check, the dataset and its resumable upload.
 */
export function CreateDatasetDialog({ opened, onClose, onCreated }: { opened: boolean; onClose: () => void; onCreated?: (id: string) => void }) {
  const { t } = useDatasetsT();
  const { user } = useMe();
  const queryClient = useQueryClient();
  const storage = useStorage(opened);
  const [file, setFile] = useState<File | null>(null);
  const [task, setTask] = useState<string>('detect');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [fileError, setFileError] = useState<string | null>(null);
  const [nameError, setNameError] = useState<string | null>(null);
  const [check, setCheck] = useState<{ checking: boolean; result: ArchiveCheck | null }>({ checking: false, result: null });
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  // A result that set the task itself (a classification archive, ADR 0029) stands for that task: no second check.
  const pickedResult = useRef<ArchiveCheck | null>(null);
  const [problem, setProblem] = useState<UploadProblem | null>(null);
  const [submitting, setSubmitting] = useState(false);

  // The check runs again when the file or the task changes; a stale answer is dropped.
  useEffect(() => {
    if (!file) {
      setCheck({ checking: false, result: null });
      return;
    }
    if (pickedResult.current) {
      setCheck({ checking: false, result: pickedResult.current });
      pickedResult.current = null;
      return;
    }
    let current = true;
    setCheck({ checking: true, result: null });
    setProgress(null);
    checkArchive(file, task, { onProgress: (done, total) => current && setProgress({ done, total }) })
      .then((result) => {
        if (!current) return;
        if (result.status === 'ok' && result.taskPicked && result.task !== task) {
          pickedResult.current = result;
          setTask(result.task);
        }
        setCheck({ checking: false, result });
      })
      .catch(() => current && setCheck({ checking: false, result: { status: 'skipped', format: 'zip', reason: 'too-large' } }));
    return () => {
      current = false;
    };
  }, [file, task]);

  const reset = () => {
    setFile(null);
    setTask('detect');
    setName('');
    setDescription('');
    setFileError(null);
    setNameError(null);
    setProblem(null);
  };
  const close = () => {
    if (submitting) return;
    reset();
    onClose();
  };

  const choose = (picked: File | undefined) => {
    setProblem(null);
    if (!picked) return;
    if (!archiveFormat(picked.name)) {
      setFile(null);
      setFileError(t('create.notArchive', { name: picked.name }));
      return;
    }
    setFileError(null);
    setFile(picked);
    if (!name.trim()) setName(stem(picked.name).slice(0, 100));
  };

  const blocked = check.result?.status === 'blocked';
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    // Spec §5: creation requires an archive file (NoArchiveProvided).
    if (!file) {
      setFileError(i18n.t('errors:codes.NoArchiveProvided'));
      return;
    }
    if (!name.trim()) {
      setNameError(t('create.nameRequired'));
      return;
    }
    if (blocked || check.checking || !user) return;
    setSubmitting(true);
    try {
      const dataset = await createDatasetWithArchive(
        queryClient,
        user.id,
        { meta: { name: name.trim(), description: description.trim() }, task: task as (typeof DATASET_TASKS_UI)[number] },
        file,
      );
      void queryClient.invalidateQueries({ queryKey: ['storage'] });
      setSubmitting(false);
      reset();
      onClose();
      onCreated?.(dataset.id);
    } catch (error) {
      const p = uploadProblem(error);
      setProblem(p);
      if (p.code === ErrorCode.NoArchiveProvided) setFileError(p.message);
      setSubmitting(false);
    }
  };

  const remaining = storage.data?.remaining;
  return (
    <Modal opened={opened} onClose={close} title={t('create.title')} size="lg" centered closeButtonProps={{ 'aria-label': t('create.close') }}>
      <form onSubmit={submit} noValidate data-testid="create-dataset-form">
        <Stack gap="md">
          {file ? (
            <Paper withBorder radius="md" p="sm" data-testid="chosen-archive">
              <Group wrap="nowrap" gap="sm">
                <ThemeIcon variant="light" size="lg" radius="md">
                  <IconFileZip size={20} aria-hidden />
                </ThemeIcon>
                <div style={{ flex: 1, minWidth: 0 }}>
                  <Text size="sm" fw={600} truncate>
                    {file.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatBytes(file.size)}
                    {remaining !== undefined && ` · ${t('create.storageLeft', { remaining: formatBytes(remaining) })}`}
                  </Text>
                </div>
                <CloseButton aria-label={t('create.removeFile')} onClick={() => setFile(null)} disabled={submitting} />
              </Group>
            </Paper>
          ) : (
            <Stack gap={4}>
              <Dropzone
                onDrop={(files) => choose(files[0])}
                onReject={(rejections) => {
                  setFile(null);
                  setFileError(t('create.notArchive', { name: rejections[0]?.file.name ?? '' }));
                }}
                accept={ACCEPT}
                multiple={false}
                maxFiles={1}
                aria-label={t('create.archive')}
                data-testid="archive-dropzone"
                inputProps={{ 'aria-label': t('create.archive') }}
                style={fileError ? { borderColor: 'var(--mantine-color-error)' } : undefined}
              >
                <Group justify="center" gap="md" mih={110} style={{ pointerEvents: 'none' }}>
                  <Dropzone.Accept>
                    <IconUpload size={40} aria-hidden />
                  </Dropzone.Accept>
                  <Dropzone.Reject>
                    <IconX size={40} aria-hidden />
                  </Dropzone.Reject>
                  <Dropzone.Idle>
                    <IconFileZip size={40} aria-hidden color="var(--mantine-color-brand-6)" />
                  </Dropzone.Idle>
                  <div>
                    <Text fw={600}>{t('create.dropTitle')}</Text>
                    <Text size="sm" c="dimmed">
                      {t('create.dropHint')}
                    </Text>
                    {remaining !== undefined && (
                      <Text size="xs" c="dimmed" mt={4}>
                        {t('create.storageLeft', { remaining: formatBytes(remaining) })}
                      </Text>
                    )}
                  </div>
                </Group>
              </Dropzone>
              {fileError && (
                <Text size="sm" c="red.8" role="alert" data-testid="file-error">
                  {fileError}
                </Text>
              )}
            </Stack>
          )}
          <ArchiveCheckResult checking={check.checking} result={check.result} progress={progress} />
          <Select
            label={t('create.task')}
            description={t('create.taskHint')}
            data={DATASET_TASKS_UI.map((value) => ({ value, label: t(`tasks.${value}`) }))}
            value={task}
            onChange={(v) => v && setTask(v)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            label={t('create.name')}
            value={name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setNameError(null);
            }}
            maxLength={100}
            required
            error={nameError}
          />
          <Textarea
            label={t('create.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={1000}
            autosize
            minRows={2}
            maxRows={5}
          />
          {problem && <UploadProblemAlert problem={problem} onClose={() => setProblem(null)} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={submitting}>
              {t('create.cancel')}
            </Button>
            <Button type="submit" loading={submitting} disabled={blocked || check.checking} leftSection={<IconUpload size={16} aria-hidden />}>
              {t('create.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
