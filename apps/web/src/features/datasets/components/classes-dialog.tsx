import { useState } from 'react';
import { ActionIcon, Button, ColorSwatch, Group, Modal, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconArrowMerge, IconCheck, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import type { Dataset } from '@sightline/contracts';
import { classColor } from '../../../lib/class-colors';
import { notifications } from '../../../lib/notifications';
import { notifyError } from '../../../lib/notify-error';
import { deleteDatasetClass, mergeDatasetClasses, renameDatasetClass } from '../api/edit-dataset-images';
import { datasetQueryKey } from '../api/get-dataset';
import { useDatasetsT } from '../i18n';

type Pending = { kind: 'merge'; from: number; into: number } | { kind: 'delete'; cls: number } | null;

/**
 * The working class list: rename a class, merge one into another, delete one (its labels go); each rewrites the labels
 * of the working state on the server (ADR 0037) and shows up in the next version's diff.
 */
export function ClassesDialog({ dataset, opened, onClose }: { dataset: Dataset; opened: boolean; onClose: () => void }) {
  const { t } = useDatasetsT();
  const queryClient = useQueryClient();
  const names = dataset.stats?.classes ?? [];
  const [drafts, setDrafts] = useState<Record<number, string>>({});
  const [busy, setBusy] = useState<string | null>(null);
  const [pending, setPending] = useState<Pending>(null);

  const run = async (key: string, action: () => Promise<unknown>, done: string) => {
    setBusy(key);
    try {
      await action();
      notifications.success(done);
      await queryClient.invalidateQueries({ queryKey: datasetQueryKey(dataset.id) });
      return true;
    } catch (err) {
      notifyError(err);
      return false;
    } finally {
      setBusy(null);
    }
  };
  const rename = async (cls: number) => {
    const to = (drafts[cls] ?? '').trim();
    if (!to || to === names[cls]) return;
    if (await run(`rename:${cls}`, () => renameDatasetClass(dataset.id, cls, to), t('classes.renamed', { from: names[cls], to })))
      setDrafts(({ [cls]: _, ...rest }) => rest);
  };
  const confirm = async () => {
    if (!pending) return;
    const ok =
      pending.kind === 'merge'
        ? await run(
            'merge',
            () => mergeDatasetClasses(dataset.id, [pending.from], pending.into),
            t('classes.merged', { from: names[pending.from], into: names[pending.into] }),
          )
        : await run('delete', () => deleteDatasetClass(dataset.id, pending.cls), t('classes.deletedDone', { name: names[pending.cls] }));
    if (ok) setPending(null);
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('classes.title')} size="lg" centered>
      {pending ? (
        <Stack data-testid="class-confirm">
          <Text size="sm">
            {pending.kind === 'merge'
              ? t('classes.mergeBody', { from: names[pending.from], into: names[pending.into] })
              : t('classes.deleteBody', { name: names[pending.cls] })}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPending(null)}>
              {t('versions.cancel')}
            </Button>
            <Button
              color={pending.kind === 'delete' ? 'red' : undefined}
              loading={busy !== null}
              onClick={() => void confirm()}
              data-testid="class-confirm-submit"
            >
              {pending.kind === 'merge' ? t('classes.merge') : t('classes.delete')}
            </Button>
          </Group>
        </Stack>
      ) : names.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('classes.none')}
        </Text>
      ) : (
        <Stack gap="xs">
          <Text size="sm" c="dimmed">
            {t('classes.body')}
          </Text>
          <Table.ScrollContainer minWidth={340}>
            <Table verticalSpacing={6} data-testid="classes-table">
              <Table.Tbody>
                {names.map((name, cls) => {
                  const draft = drafts[cls] ?? name;
                  const changed = draft.trim() !== name && draft.trim() !== '';
                  return (
                    <Table.Tr key={cls} data-testid="class-row">
                      <Table.Td w={36}>
                        <ColorSwatch color={classColor(cls)} size={16} aria-hidden />
                      </Table.Td>
                      <Table.Td>
                        <form
                          onSubmit={(e) => {
                            e.preventDefault();
                            void rename(cls);
                          }}
                        >
                          <Group gap={4} wrap="nowrap">
                            <TextInput
                              size="xs"
                              value={draft}
                              onChange={(e) => {
                                const value = e.currentTarget.value;
                                setDrafts((d) => ({ ...d, [cls]: value }));
                              }}
                              aria-label={t('classes.nameOf', { index: cls })}
                              maxLength={100}
                              style={{ flex: 1, minWidth: 100 }}
                            />
                            {changed && (
                              <Tooltip label={t('classes.rename')} withArrow>
                                <ActionIcon
                                  type="submit"
                                  size={30}
                                  loading={busy === `rename:${cls}`}
                                  aria-label={t('classes.renameTo', { name: draft.trim() })}
                                >
                                  <IconCheck size={16} />
                                </ActionIcon>
                              </Tooltip>
                            )}
                          </Group>
                        </form>
                      </Table.Td>
                      <Table.Td w={150}>
                        {names.length > 1 && (
                          <Select
                            size="xs"
                            placeholder={t('classes.mergeInto')}
                            aria-label={t('classes.mergeNamed', { name })}
                            leftSection={<IconArrowMerge size={14} aria-hidden />}
                            data={names.map((n, i) => ({ value: String(i), label: n })).filter((o) => o.value !== String(cls))}
                            value={null}
                            onChange={(v) => v !== null && setPending({ kind: 'merge', from: cls, into: Number(v) })}
                          />
                        )}
                      </Table.Td>
                      <Table.Td w={40}>
                        <Tooltip label={t('classes.delete')} withArrow>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            onClick={() => setPending({ kind: 'delete', cls })}
                            aria-label={t('classes.deleteNamed', { name })}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Stack>
      )}
    </Modal>
  );
}
