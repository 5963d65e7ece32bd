import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, TextInput, Textarea } from '@mantine/core';
import { updateProjectBody, type Project } from '@sightline/contracts';
import { ImagePicker } from '../../../components/image-picker';
import { fieldErrors } from '../../../lib/form';
import { useCreateProject } from '../api/create-project';
import { useUpdateProject } from '../api/update-project';
import { useProjectsT } from '../i18n';

function ProjectForm({ project, onClose, onCreated }: { project?: Project; onClose: () => void; onCreated?: (p: Project) => void }) {
  const { t } = useProjectsT();
  const create = useCreateProject();
  const update = useUpdateProject();
  const [name, setName] = useState(project?.meta.name ?? '');
  const [description, setDescription] = useState(project?.meta.description ?? '');
  const [image, setImage] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const pending = create.isPending || update.isPending;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Editing needs a name; creating may leave it blank for 'Untitled' (spec §5).
    const errs = project ? fieldErrors(updateProjectBody.shape.meta.unwrap(), { name: name.trim(), description }) : {};
    setErrors(errs);
    if (Object.keys(errs).length) return;
    if (project) update.mutate({ id: project.id, name, description, image }, { onSuccess: onClose });
    else
      create.mutate(
        { name, description, image },
        {
          onSuccess: (p) => {
            onClose();
            onCreated?.(p);
          },
        },
      );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <TextInput
          label={t('form.name')}
          placeholder={project ? undefined : 'Untitled'}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={100}
          required={Boolean(project)}
          error={errors.name}
          data-autofocus
        />
        <Textarea
          label={t('form.description')}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={2}
          maxRows={6}
          error={errors.description}
        />
        <ImagePicker
          label={t('form.cover')}
          description={t('form.coverHint')}
          current={project?.image.url}
          file={image}
          onFile={setImage}
          loading={pending}
          alt={t('form.coverPreview')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" loading={pending}>
            {project ? t('common:save') : t('form.create')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Create (no `project`) or edit a project: name, description and cover image. */
export function ProjectFormDialog({
  opened,
  onClose,
  project,
  onCreated,
}: {
  opened: boolean;
  onClose: () => void;
  project?: Project;
  onCreated?: (p: Project) => void;
}) {
  const { t } = useProjectsT();
  return (
    <Modal opened={opened} onClose={onClose} title={project ? t('form.editTitle') : t('form.createTitle')} centered size="lg">
      <ProjectForm project={project} onClose={onClose} onCreated={onCreated} />
    </Modal>
  );
}
