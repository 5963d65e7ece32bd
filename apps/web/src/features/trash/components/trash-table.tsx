import { ActionIcon, Anchor, Button, Group, Paper, Stack, Table, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconCube, IconDatabase, IconFolder, IconRestore, IconTrashX, IconVersions } from '@tabler/icons-react';
import { BREAKPOINT_MOBILE, type TrashItem } from '@sightline/contracts';
import { Link } from 'react-router';
import { FileSize } from '../../../components/file-size';
import { formatDate, formatDateTime, formatRelative } from '../../../lib/dates';
import { useTrashT } from '../i18n';

const ICONS = { dataset: IconDatabase, project: IconFolder, model: IconCube, datasetVersion: IconVersions } as const;
const PATHS = { dataset: '/datasets/', project: '/projects/', model: '/models/', datasetVersion: '/datasets/' } as const;
/** Where an item's link goes: a dataset version opens its dataset (ADR 0038). */
const linkTo = (item: TrashItem) => `${PATHS[item.type]}${item.type === 'datasetVersion' && item.parent ? item.parent.id : item.id}`;

export interface TrashTableProps {
  items: TrashItem[];
  now: number;
  busyKey: string | null;
  onRestore: (item: TrashItem) => void;
  onDelete: (item: TrashItem) => void;
}

export const itemKey = (item: Pick<TrashItem, 'type' | 'id'>) => `${item.type}:${item.id}`;

/** Phones: one card per item (name, kind, expiry, size, actions) instead of a table wider than the screen. */
function TrashCards({ items, now, busyKey, onRestore, onDelete }: TrashTableProps) {
  const { t } = useTrashT();
  const trashed = new Set(items.map(itemKey));
  return (
    <Stack gap="xs" data-testid="trash-table" role="list">
      {items.map((item) => {
        const Icon = ICONS[item.type];
        const parentTrashed = item.parent !== null && trashed.has(itemKey(item.parent));
        return (
          <Paper key={itemKey(item)} withBorder radius="md" p="sm" role="listitem" data-testid="trash-row" data-type={item.type} data-id={item.id}>
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <ThemeIcon variant="light" color="gray" size={30} radius="md" aria-hidden>
                <Icon size={16} />
              </ThemeIcon>
              <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
                <Anchor component={Link} to={linkTo(item)} fw={500} size="sm" lineClamp={2} style={{ overflowWrap: 'anywhere' }} data-testid="trash-name">
                  {item.name}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {t(`types.${item.type}`)} ·{' '}
                  <span data-testid="trash-expires" style={{ whiteSpace: 'nowrap' }}>
                    {formatRelative(item.expires, now)}
                  </span>{' '}
                  ·{' '}
                  <span style={{ whiteSpace: 'nowrap' }} data-testid="trash-size">
                    <FileSize bytes={item.bytes} />
                  </span>
                </Text>
                {item.parent && (
                  <Text size="xs" c="dimmed">
                    {parentTrashed ? t('parentTrashed', { name: item.parent.name }) : t('inProject', { name: item.parent.name })}
                  </Text>
                )}
              </Stack>
              <Group gap={4} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => onRestore(item)}
                  disabled={parentTrashed}
                  loading={busyKey === itemKey(item)}
                  aria-label={t('restoreName', { name: item.name })}
                >
                  {t('restore')}
                </Button>
                <ActionIcon variant="subtle" color="red" onClick={() => onDelete(item)} aria-label={t('deleteName', { name: item.name })}>
                  <IconTrashX size={18} />
                </ActionIcon>
              </Group>
            </Group>
          </Paper>
        );
      })}
    </Stack>
  );
}

export function TrashTable(props: TrashTableProps) {
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINT_MOBILE}px)`, false, { getInitialValueInEffect: false });
  return mobile ? <TrashCards {...props} /> : <WideTrashTable {...props} />;
}

function WideTrashTable({ items, now, busyKey, onRestore, onDelete }: TrashTableProps) {
  const { t } = useTrashT();
  const trashed = new Set(items.map(itemKey));
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="trash-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('columns.name')}</Table.Th>
            <Table.Th>{t('columns.type')}</Table.Th>
            <Table.Th>{t('columns.deleted')}</Table.Th>
            <Table.Th>{t('columns.expires')}</Table.Th>
            <Table.Th>{t('columns.size')}</Table.Th>
            <Table.Th ta="right">{t('columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.map((item) => {
            const Icon = ICONS[item.type];
            // A model that went with its project comes back with it: restore the project first.
            const parentTrashed = item.parent !== null && trashed.has(itemKey(item.parent));
            const busy = busyKey === itemKey(item);
            return (
              <Table.Tr key={itemKey(item)} data-testid="trash-row" data-type={item.type} data-id={item.id}>
                <Table.Td>
                  <Group gap="sm" wrap="nowrap">
                    <ThemeIcon variant="light" color="gray" size={30} radius="md" aria-hidden>
                      <Icon size={16} />
                    </ThemeIcon>
                    <div style={{ minWidth: 0 }}>
                      <Anchor component={Link} to={linkTo(item)} fw={500} size="sm" style={{ wordBreak: 'break-all' }} data-testid="trash-name">
                        {item.name}
                      </Anchor>
                      {item.parent && (
                        <Text size="xs" c="dimmed">
                          {parentTrashed ? t('parentTrashed', { name: item.parent.name }) : t('inProject', { name: item.parent.name })}
                        </Text>
                      )}
                    </div>
                  </Group>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm" c="dimmed">
                    {t(`types.${item.type}`)}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm" title={formatDateTime(item.deleted)}>
                    {formatDate(item.deleted)}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Tooltip label={formatDateTime(item.expires)} withArrow>
                    <Text size="sm" data-testid="trash-expires" tabIndex={0}>
                      {formatRelative(item.expires, now)}
                    </Text>
                  </Tooltip>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm" data-testid="trash-size">
                    <FileSize bytes={item.bytes} />
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="compact-sm"
                      variant="light"
                      leftSection={<IconRestore size={14} />}
                      onClick={() => onRestore(item)}
                      disabled={parentTrashed}
                      loading={busy}
                      aria-label={t('restoreName', { name: item.name })}
                      title={parentTrashed ? t('restoreParentFirst') : undefined}
                    >
                      {t('restore')}
                    </Button>
                    <Tooltip label={t('deleteForever')} withArrow>
                      <ActionIcon variant="subtle" color="red" onClick={() => onDelete(item)} aria-label={t('deleteName', { name: item.name })}>
                        <IconTrashX size={18} />
                      </ActionIcon>
                    </Tooltip>
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
