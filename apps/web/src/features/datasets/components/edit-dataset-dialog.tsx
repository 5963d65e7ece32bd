import { useEffect, useState, type FormEvent } from 'react';
import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import type { Dataset } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { useUpdateDataset } from '../api/update-dataset';
import { useDatasetsT } from '../i18n';

/** Name and description; Save stays disabled until something changed. */
export function EditDatasetDialog({ dataset, opened, onClose }: { dataset: Dataset; opened: boolean; onClose: () => void }) {
  const { t } = useDatasetsT();
  const update = useUpdateDataset(dataset.id);
  const [name, setName] = useState(dataset.meta.name);
  const [description, setDescription] = useState(dataset.meta.description);
  useEffect(() => {
    if (!opened) return;
    setName(dataset.meta.name);
    setDescription(dataset.meta.description);
  }, [opened, dataset.meta.name, dataset.meta.description]);
  const changed = name.trim() !== dataset.meta.name || description.trim() !== dataset.meta.description;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!changed || !name.trim()) return;
    update.mutate(
      { meta: { name: name.trim(), description: description.trim() } },
      {
        onSuccess: () => {
          notifications.success(t('edit.saved'));
          onClose();
        },
        onError: () => notifications.error(t('edit.failed')),
      },
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('edit.title')} centered>
      <form onSubmit={submit}>
        <Stack>
          <TextInput
            label={t('create.name')}
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={100}
            required
            error={name.trim() ? null : t('create.nameRequired')}
            data-autofocus
          />
          <Textarea
            label={t('create.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={1000}
            autosize
            minRows={3}
            maxRows={8}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('create.cancel')}
            </Button>
            <Button type="submit" disabled={!changed || !name.trim()} loading={update.isPending}>
              {t('edit.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
