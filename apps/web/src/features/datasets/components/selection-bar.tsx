import { useState } from 'react';
import { Button, Group, Menu, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { IconArrowsExchange, IconChevronDown, IconCopy, IconTrash, IconX } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { Dataset } from '@sightline/contracts';
import type { Split } from '@sightline/contracts/dataset-layout';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notifications } from '../../../lib/notifications';
import { notifyError } from '../../../lib/notify-error';
import { copyDatasetImages, deleteDatasetImages, moveDatasetImages } from '../api/edit-dataset-images';
import { datasetQueryKey } from '../api/get-dataset';
import { getDatasets } from '../api/get-datasets';
import { useDatasetsT } from '../i18n';

const SPLITS: Split[] = ['train', 'val', 'test'];

/** What to do with the images picked on the Images tab: move or copy to a split, copy into another dataset, delete. */
export function SelectionBar({
  dataset,
  selected,
  onSelectPage,
  onClear,
}: {
  dataset: Dataset;
  selected: string[];
  onSelectPage: () => void;
  onClear: () => void;
}) {
  const { t } = useDatasetsT();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [copyingOut, setCopyingOut] = useState(false);
  const n = selected.length;

  const run = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      notifications.success(done);
      onClear();
      await queryClient.invalidateQueries({ queryKey: datasetQueryKey(dataset.id) });
      return true;
    } catch (err) {
      notifyError(err);
      return false;
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder radius="md" p="xs" data-testid="selection-bar" style={{ position: 'sticky', top: 8, zIndex: 5 }}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs">
          <Text size="sm" fw={600} aria-live="polite" data-testid="selection-count">
            {t('select.count', { count: n })}
          </Text>
          <Button variant="subtle" size="xs" onClick={onSelectPage}>
            {t('select.page')}
          </Button>
        </Group>
        <Group gap={6} wrap="wrap">
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <Button
                size="xs"
                variant="default"
                disabled={n === 0}
                loading={busy}
                leftSection={<IconArrowsExchange size={14} aria-hidden />}
                rightSection={<IconChevronDown size={14} aria-hidden />}
                data-testid="move-menu"
              >
                {t('select.move')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {SPLITS.map((s) => (
                <Menu.Item
                  key={s}
                  onClick={() => void run(() => moveDatasetImages(dataset.id, selected, s), t('select.moved', { count: n, split: t(`splits.${s}`) }))}
                >
                  {t('select.toSplit', { split: t(`splits.${s}`) })}
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <Button
                size="xs"
                variant="default"
                disabled={n === 0}
                loading={busy}
                leftSection={<IconCopy size={14} aria-hidden />}
                rightSection={<IconChevronDown size={14} aria-hidden />}
                data-testid="copy-menu"
              >
                {t('select.copy')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {SPLITS.map((s) => (
                <Menu.Item
                  key={s}
                  onClick={() =>
                    void run(() => copyDatasetImages(dataset.id, selected, { split: s }), t('select.copied', { count: n, split: t(`splits.${s}`) }))
                  }
                >
                  {t('select.toSplit', { split: t(`splits.${s}`) })}
                </Menu.Item>
              ))}
              <Menu.Divider />
              <Menu.Item onClick={() => setCopyingOut(true)}>{t('select.toDataset')}</Menu.Item>
            </Menu.Dropdown>
          </Menu>
          <Button
            size="xs"
            color="red"
            variant="light"
            disabled={n === 0}
            loading={busy}
            leftSection={<IconTrash size={14} aria-hidden />}
            onClick={() => setDeleting(true)}
            data-testid="delete-selected"
          >
            {t('select.delete')}
          </Button>
          <Button size="xs" variant="subtle" color="gray" leftSection={<IconX size={14} aria-hidden />} onClick={onClear}>
            {t('select.done')}
          </Button>
        </Group>
      </Group>
      <ConfirmDialog
        opened={deleting}
        onClose={() => setDeleting(false)}
        loading={busy}
        onConfirm={() =>
          void run(() => deleteDatasetImages(dataset.id, selected), t('select.deleted', { count: n })).then((ok) => {
            if (ok) setDeleting(false);
          })
        }
        title={t('select.deleteTitle', { count: n })}
        confirmLabel={t('select.delete')}
      >
        {t('select.deleteBody')}
      </ConfirmDialog>
      <CopyToDatasetDialog
        dataset={dataset}
        opened={copyingOut}
        busy={busy}
        count={n}
        onClose={() => setCopyingOut(false)}
        onCopy={(target, name, split) =>
          void run(() => copyDatasetImages(dataset.id, selected, { datasetId: target, split }), t('select.copiedTo', { count: n, name })).then((ok) => {
            if (ok) setCopyingOut(false);
          })
        }
      />
    </Paper>
  );
}

/** Another dataset of the same task that the user may edit (the server checks again, and copies bytes across owners). */
function CopyToDatasetDialog({
  dataset,
  opened,
  busy,
  count,
  onClose,
  onCopy,
}: {
  dataset: Dataset;
  opened: boolean;
  busy: boolean;
  count: number;
  onClose: () => void;
  onCopy: (datasetId: string, name: string, split: Split) => void;
}) {
  const { t } = useDatasetsT();
  const [target, setTarget] = useState<string | null>(null);
  const [split, setSplit] = useState<Split>('train');
  const query = useQuery({
    queryKey: ['dataset-copy-targets', dataset.task],
    queryFn: ({ signal }) => getDatasets({ task: dataset.task }, { limit: 100, signal }),
    enabled: opened,
  });
  const targets = (query.data?.results ?? []).filter((d) => d.id !== dataset.id && d.abilities.canEdit && !!d.dates.processed);
  const name = targets.find((d) => d.id === target)?.meta.name ?? '';
  return (
    <Modal opened={opened} onClose={onClose} title={t('select.copyTitle', { count })} centered>
      <Stack>
        <Select
          label={t('select.targetDataset')}
          placeholder={query.isPending ? t('select.loadingTargets') : t('select.pickDataset')}
          data={targets.map((d) => ({ value: d.id, label: d.meta.name }))}
          value={target}
          onChange={setTarget}
          searchable
          nothingFoundMessage={t('select.noTargets')}
          data-testid="copy-target"
        />
        <Select
          label={t('add.split')}
          data={SPLITS.map((s) => ({ value: s, label: t(`splits.${s}`) }))}
          value={split}
          onChange={(v) => v && setSplit(v as Split)}
          allowDeselect={false}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('versions.cancel')}
          </Button>
          <Button disabled={!target} loading={busy} onClick={() => target && onCopy(target, name, split)}>
            {t('select.copy')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
