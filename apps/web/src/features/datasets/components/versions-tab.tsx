import { useEffect, useState } from 'react';
import { ActionIcon, Anchor, Badge, Button, Center, Group, Loader, Menu, Modal, Paper, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { IconDots, IconDownload, IconGitCompare, IconHistory, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { VERSION_NOTE_MAX, type Dataset } from '@sightline/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDateTime } from '../../../lib/dates';
import { notifications } from '../../../lib/notifications';
import { notifyError } from '../../../lib/notify-error';
import { datasetQueryKey } from '../api/get-dataset';
import { deleteDatasetVersion } from '../api/delete-dataset-version';
import { datasetVersionDownloadUrl, useDatasetVersion, useDatasetVersions, type DatasetVersion } from '../api/get-dataset-versions';
import { saveDatasetVersion } from '../api/save-dataset-version';
import type { DiffPair } from '../api/get-dataset-diff';
import { useDatasetsT } from '../i18n';
import { VersionDiff } from './version-diff';

/**
 * The dataset page's Versions tab (ADR 0038): saved versions newest first (number, note, date, author, images, the models
 * trained on each), Save version with a note, the zip of each, delete to the trash, and the diff of two versions or a
 * version and the working state. `highlight` is the version a model page linked to.
 */
export function VersionsTab({
  dataset,
  highlight,
  diff,
  onDiff,
}: {
  dataset: Dataset;
  highlight: number | null;
  diff: DiffPair | null;
  onDiff: (diff: DiffPair | null) => void;
}) {
  const { t } = useDatasetsT();
  const query = useDatasetVersions(dataset.id);
  const [saving, setSaving] = useState(false);
  const [deleting, setDeleting] = useState<DatasetVersion | null>(null);
  const versions = query.data ?? [];
  const canEdit = dataset.abilities.canEdit;
  const latest = versions[0]?.number ?? null;

  return (
    <Stack gap="md" data-testid="versions-tab">
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 240px' }}>
          {t('versions.intro')}
        </Text>
        <Group gap="xs">
          {versions.length > 0 && (
            <Button
              variant="default"
              leftSection={<IconGitCompare size={16} aria-hidden />}
              onClick={() => onDiff({ from: versions[1]?.number ?? versions[0]!.number, to: versions[1] ? versions[0]!.number : 'working' })}
              data-testid="open-diff"
            >
              {t('versions.compare')}
            </Button>
          )}
          {canEdit && (
            <Button leftSection={<IconHistory size={16} aria-hidden />} onClick={() => setSaving(true)} data-testid="save-version">
              {t('versions.save')}
            </Button>
          )}
        </Group>
      </Group>
      {diff && <VersionDiff dataset={dataset} versions={versions} from={diff.from} to={diff.to} onChange={onDiff} />}
      {query.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('versions.loading')} />
        </Center>
      ) : query.isError ? (
        <Text c="red" ta="center" py="xl">
          {t('versions.loadFailed')}
        </Text>
      ) : versions.length === 0 ? (
        <Text c="dimmed" ta="center" py="xl" data-testid="versions-empty">
          {t('versions.none')}
        </Text>
      ) : (
        <Stack gap="sm" data-testid="version-list">
          {versions.map((version) => (
            <VersionCard
              key={version.number}
              dataset={dataset}
              version={version}
              latest={version.number === latest}
              highlighted={version.number === highlight}
              onCompare={onDiff}
              onDelete={() => setDeleting(version)}
            />
          ))}
        </Stack>
      )}
      <SaveVersionDialog dataset={dataset} opened={saving} onClose={() => setSaving(false)} next={(latest ?? 0) + 1} />
      <DeleteVersionDialog dataset={dataset} version={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}

function VersionCard({
  dataset,
  version,
  latest,
  highlighted,
  onCompare,
  onDelete,
}: {
  dataset: Dataset;
  version: DatasetVersion;
  latest: boolean;
  highlighted: boolean;
  onCompare: (diff: DiffPair) => void;
  onDelete: () => void;
}) {
  const { t } = useDatasetsT();
  // The list counts the models trained on a version; the version itself names them.
  const detail = useDatasetVersion(dataset.id, version.models > 0 ? version.number : null);
  const models = detail.data?.modelList ?? [];
  const [element, setElement] = useState<HTMLDivElement | null>(null);
  useEffect(() => {
    if (highlighted && element) element.scrollIntoView?.({ block: 'center' });
  }, [highlighted, element]);

  return (
    <Paper
      ref={setElement}
      withBorder
      radius="md"
      p="md"
      data-testid="version-card"
      data-version={version.number}
      style={highlighted ? { borderColor: 'var(--mantine-color-brand-6)', boxShadow: '0 0 0 1px var(--mantine-color-brand-6)' } : undefined}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
        <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
          <Group gap="xs" wrap="wrap">
            <Title order={3} fz="md">
              {t('versions.number', { number: version.number })}
            </Title>
            {latest && (
              <Badge size="sm" variant="light">
                {t('versions.latest')}
              </Badge>
            )}
            {highlighted && (
              <Badge size="sm" variant="filled" data-testid="version-highlight">
                {t('versions.linked')}
              </Badge>
            )}
          </Group>
          {version.note ? (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="version-note">
              {version.note}
            </Text>
          ) : (
            <Text size="sm" c="dimmed" fs="italic">
              {t('versions.noNote')}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            {[
              formatDateTime(version.createdAt),
              version.createdBy?.username ? t('versions.by', { name: version.createdBy.username }) : null,
              t('versions.images', { count: version.images, formatted: version.images.toLocaleString() }),
              t('versions.classes', { count: version.classes.length }),
            ]
              .filter(Boolean)
              .join(' · ')}
          </Text>
          {version.models > 0 && (
            <Group gap={6} wrap="wrap" data-testid="version-models">
              <Text size="xs" fw={600}>
                {t('versions.models', { count: version.models })}
              </Text>
              {models.map((m) => (
                <Anchor key={m.id} component={Link} to={`/models/${m.id}`} size="xs">
                  {m.name}
                </Anchor>
              ))}
            </Group>
          )}
        </Stack>
        <Group gap={6} wrap="nowrap">
          <Tooltip label={t('versions.download')} withArrow>
            <ActionIcon
              component="a"
              href={datasetVersionDownloadUrl(dataset.id, version.number)}
              download
              variant="default"
              size={36}
              aria-label={t('versions.downloadNamed', { number: version.number })}
              data-testid="version-download"
            >
              <IconDownload size={18} />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" withinPortal shadow="md">
            <Menu.Target>
              <ActionIcon variant="default" size={36} aria-label={t('versions.actions', { number: version.number })}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item leftSection={<IconGitCompare size={16} aria-hidden />} onClick={() => onCompare({ from: version.number, to: 'working' })}>
                {t('versions.compareWorking')}
              </Menu.Item>
              {version.number > 1 && (
                <Menu.Item leftSection={<IconGitCompare size={16} aria-hidden />} onClick={() => onCompare({ from: version.number - 1, to: version.number })}>
                  {t('versions.comparePrevious')}
                </Menu.Item>
              )}
              {dataset.abilities.canDelete && (
                <Menu.Item color="red" leftSection={<IconTrash size={16} aria-hidden />} onClick={onDelete}>
                  {t('versions.delete')}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
    </Paper>
  );
}

function SaveVersionDialog({ dataset, opened, onClose, next }: { dataset: Dataset; opened: boolean; onClose: () => void; next: number }) {
  const { t } = useDatasetsT();
  const queryClient = useQueryClient();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    try {
      const saved = await saveDatasetVersion(dataset.id, note.trim());
      notifications.success(t('versions.saved', { number: saved?.number ?? next }));
      setNote('');
      onClose();
      await queryClient.invalidateQueries({ queryKey: datasetQueryKey(dataset.id) });
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('versions.saveTitle', { number: next })} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Stack>
          <Text size="sm" c="dimmed">
            {t('versions.saveBody')}
          </Text>
          <Textarea
            label={t('versions.note')}
            placeholder={t('versions.notePlaceholder')}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={VERSION_NOTE_MAX}
            autosize
            minRows={2}
            maxRows={6}
            data-autofocus
            data-testid="version-note-input"
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('versions.cancel')}
            </Button>
            <Button type="submit" loading={busy} data-testid="save-version-submit">
              {t('versions.saveSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function DeleteVersionDialog({ dataset, version, onClose }: { dataset: Dataset; version: DatasetVersion | null; onClose: () => void }) {
  const { t } = useDatasetsT();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const confirm = async () => {
    if (!version) return;
    setBusy(true);
    try {
      await deleteDatasetVersion(dataset.id, version.number);
      notifications.success(t('versions.deleted', { number: version.number }), { link: { text: t('versions.openTrash'), path: '/trash' } });
      onClose();
      await queryClient.invalidateQueries({ queryKey: datasetQueryKey(dataset.id) });
    } catch (err) {
      notifyError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <ConfirmDialog
      opened={!!version}
      onClose={onClose}
      onConfirm={() => void confirm()}
      loading={busy}
      title={t('versions.deleteTitle', { number: version?.number ?? 0 })}
      confirmLabel={t('versions.deleteConfirm')}
    >
      {t('versions.deleteBody')}
    </ConfirmDialog>
  );
}
