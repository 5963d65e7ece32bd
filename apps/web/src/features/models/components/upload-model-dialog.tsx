import { useState, type FormEvent } from 'react';
import { Button, FileInput, Group, Modal, Progress, Stack, Text, TextInput } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import type { Model } from '@sightline/contracts';
import { FileSize } from '../../../components/file-size';
import { isModelFile, MODEL_FILE_EXTENSIONS, useUploadModel } from '../api/upload-model';
import { useModelsT } from '../i18n';

interface UploadModelFormProps {
  /** Upload into this project; without it a new project is created with the given name. */
  project?: { id: string; name: string };
  onClose: () => void;
  onUploaded?: (model: Model) => void;
}

const baseName = (file: File) => file.name.replace(/\.(pt|onnx)$/i, '');

function UploadModelForm({ project, onClose, onUploaded }: UploadModelFormProps) {
  const { t } = useModelsT();
  const upload = useUploadModel();
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState('');
  const [nameTouched, setNameTouched] = useState(false);
  const [projectName, setProjectName] = useState('');
  const [error, setError] = useState<string | null>(null);

  const choose = (f: File | null) => {
    setFile(f);
    setError(f && !isModelFile(f.name) ? t('upload.wrongType') : null);
    if (f && !nameTouched) setName(baseName(f));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return setError(t('upload.noFile'));
    if (!isModelFile(file.name)) return setError(t('upload.wrongType'));
    upload.mutate(
      { file, modelName: name.trim() || baseName(file), projectId: project?.id, projectName: project?.name ?? projectName.trim() },
      {
        onSuccess: (model) => {
          onClose();
          onUploaded?.(model);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {project && (
          <Text size="sm" c="dimmed">
            {t('upload.into', { name: project.name })}
          </Text>
        )}
        <FileInput
          label={t('upload.file')}
          description={t('upload.fileHint')}
          placeholder={t('upload.filePlaceholder')}
          accept={MODEL_FILE_EXTENSIONS.join(',')}
          value={file}
          onChange={choose}
          error={error}
          leftSection={<IconFileUpload size={16} aria-hidden />}
          clearable
          required
          disabled={upload.isPending}
        />
        {file && !error && (
          <Text size="xs" c="dimmed">
            <FileSize bytes={file.size} />
          </Text>
        )}
        <TextInput
          label={t('upload.name')}
          value={name}
          onChange={(e) => {
            setName(e.currentTarget.value);
            setNameTouched(true);
          }}
          placeholder={t('upload.namePlaceholder')}
          maxLength={100}
          disabled={upload.isPending}
        />
        {!project && (
          <TextInput
            label={t('upload.projectName')}
            description={t('upload.projectNameHint')}
            value={projectName}
            onChange={(e) => setProjectName(e.currentTarget.value)}
            placeholder="Untitled"
            maxLength={100}
            disabled={upload.isPending}
          />
        )}
        {upload.isPending && <Progress value={upload.progress * 100} animated aria-label={t('upload.progress')} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={upload.isPending}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={upload.isPending} disabled={!file || Boolean(error)}>
            {t('upload.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** "Upload model": locally trained .pt or .onnx weights (spec §7). */
export function UploadModelDialog({ opened, ...props }: UploadModelFormProps & { opened: boolean }) {
  const { t } = useModelsT();
  return (
    <Modal opened={opened} onClose={props.onClose} title={t('upload.title')} centered closeOnClickOutside={false}>
      <UploadModelForm {...props} />
    </Modal>
  );
}
