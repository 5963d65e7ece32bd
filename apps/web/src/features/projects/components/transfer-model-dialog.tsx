import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import type { Model } from '@sightline/contracts';
import { useProjects } from '../api/get-projects';
import { useTransferModel } from '../api/transfer-model';
import { useProjectsT } from '../i18n';

function TransferForm({ model, fromProjectId, onClose }: { model: Pick<Model, 'id' | 'meta'>; fromProjectId: string; onClose: () => void }) {
  const { t } = useProjectsT();
  const projects = useProjects();
  const transfer = useTransferModel();
  const [target, setTarget] = useState<string | null>(null);
  const options = (projects.data ?? []).filter((p) => p.id !== fromProjectId && p.abilities.canEdit).map((p) => ({ value: p.id, label: p.meta.name }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (target) transfer.mutate({ modelId: model.id, projectId: target, fromProjectId }, { onSuccess: onClose });
  };
  return (
    <form onSubmit={submit}>
      <Stack>
        <Text size="sm">{t('transfer.body', { name: model.meta.name })}</Text>
        {!projects.isPending && options.length === 0 ? (
          <Alert variant="light" color="gray">
            {t('transfer.noTargets')}
          </Alert>
        ) : (
          <Select
            label={t('transfer.target')}
            placeholder={t('transfer.placeholder')}
            data={options}
            value={target}
            onChange={setTarget}
            searchable
            nothingFoundMessage={t('transfer.nothing')}
            disabled={projects.isPending}
            data-autofocus
          />
        )}
        <Text size="xs" c="dimmed">
          {t('transfer.privacyNote')}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common:cancel')}
          </Button>
          <Button type="submit" disabled={!target} loading={transfer.isPending}>
            {t('transfer.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Move a model to another of the owner's projects. */
export function TransferModelDialog({
  model,
  fromProjectId,
  onClose,
}: {
  model: Pick<Model, 'id' | 'meta'> | null;
  fromProjectId: string;
  onClose: () => void;
}) {
  const { t } = useProjectsT();
  return (
    <Modal opened={Boolean(model)} onClose={onClose} title={t('transfer.title')} centered>
      {model && <TransferForm model={model} fromProjectId={fromProjectId} onClose={onClose} />}
    </Modal>
  );
}
