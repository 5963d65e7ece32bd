import { useState } from 'react';
import { Alert, Button, Card, Stack, Text } from '@mantine/core';
import { IconTrash, IconTrashX } from '@tabler/icons-react';
import type { TrashItem } from '@sightline/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { FileSize } from '../../../components/file-size';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';
import { useNow } from '../../../lib/use-now';
import { useDeleteTrashItem } from '../api/delete-trash-item';
import { useEmptyTrash } from '../api/empty-trash';
import { useTrash } from '../api/get-trash';
import { useRestoreTrashItem } from '../api/restore-trash-item';
import { itemKey, TrashTable } from '../components/trash-table';
import { useTrashT } from '../i18n';

export default function TrashPage() {
  const { t } = useTrashT();
  const trash = useTrash();
  const restore = useRestoreTrashItem();
  const remove = useDeleteTrashItem();
  const empty = useEmptyTrash();
  const now = useNow(60_000);
  const [confirmDelete, setConfirmDelete] = useState<TrashItem | null>(null);
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  // Pages come newest deletion first; the first page says the whole trash's count and size.
  const pages = trash.data?.pages ?? [];
  const items = pages.flatMap((p) => p.items);
  const count = pages[0]?.count ?? 0;
  const totalBytes = pages[0]?.bytes ?? 0;

  const emptyButton = (
    <Button color="red" variant="light" leftSection={<IconTrashX size={16} />} disabled={count === 0} onClick={() => setConfirmEmpty(true)}>
      {t('empty')}
    </Button>
  );

  return (
    <Stack gap={0}>
      <PageHeader title={t('title')} description={t('description')} actions={emptyButton} />
      {trash.isPending ? (
        <PageLoader fullHeight={false} />
      ) : trash.isError ? (
        <Alert color="red">{isApiError(trash.error) ? errorMessage(trash.error.code, trash.error.message) : String(trash.error)}</Alert>
      ) : items.length === 0 ? (
        <EmptyState icon={<IconTrash size={28} />} title={t('emptyTitle')} description={t('emptyBody')} />
      ) : (
        <Card withBorder radius="md" padding="xs">
          <Text size="sm" c="dimmed" px="sm" pt="xs" data-testid="trash-summary">
            {t('summary', { count })} · <FileSize bytes={totalBytes} />
          </Text>
          <TrashTable
            items={items}
            now={now}
            busyKey={restore.isPending && restore.variables ? itemKey(restore.variables) : null}
            onRestore={(item) => restore.mutate(item)}
            onDelete={setConfirmDelete}
          />
          {trash.hasNextPage && (
            <Button variant="subtle" m="xs" onClick={() => void trash.fetchNextPage()} loading={trash.isFetchingNextPage} data-testid="trash-more">
              {t('more')}
            </Button>
          )}
        </Card>
      )}
      <ConfirmDialog
        opened={confirmDelete !== null}
        onClose={() => setConfirmDelete(null)}
        title={t('confirmDeleteTitle')}
        confirmLabel={t('deleteForever')}
        loading={remove.isPending}
        onConfirm={() => confirmDelete && remove.mutate(confirmDelete, { onSettled: () => setConfirmDelete(null) })}
      >
        {confirmDelete ? t(confirmDelete.type === 'project' ? 'confirmDeleteProject' : 'confirmDeleteBody', { name: confirmDelete.name }) : ''}
      </ConfirmDialog>
      <ConfirmDialog
        opened={confirmEmpty}
        onClose={() => setConfirmEmpty(false)}
        title={t('confirmEmptyTitle')}
        confirmLabel={t('empty')}
        loading={empty.isPending}
        onConfirm={() => empty.mutate(undefined, { onSettled: () => setConfirmEmpty(false) })}
      >
        {t('confirmEmptyBody', { count })}
      </ConfirmDialog>
    </Stack>
  );
}
