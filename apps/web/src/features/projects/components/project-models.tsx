import { useState, type DragEvent } from 'react';
import { ActionIcon, Anchor, Group, Menu, Paper, Stack, Text, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconDots, IconFolderShare, IconGripVertical, IconTrash } from '@tabler/icons-react';
import type { Model, Project } from '@sightline/contracts';
import { Link } from 'react-router';
import { FileSize } from '../../../components/file-size';
import { formatDateTime } from '../../../lib/dates';
import { LiveModelStatusBadge, useDeleteModel } from '../../models';
import { moveItem, useReorderProjectModels } from '../api/reorder-project-models';
import { TransferModelDialog } from './transfer-model-dialog';
import classes from './project-models.module.css';
import { useProjectsT } from '../i18n';

interface RowProps {
  model: Model;
  index: number;
  total: number;
  reorderable: boolean;
  watch: boolean;
  canEdit: boolean;
  drop: 'before' | 'after' | null;
  dragging: boolean;
  onMove: (from: number, to: number) => void;
  onTransfer: (model: Model) => void;
  dragHandlers: {
    onDragStart: (e: DragEvent<HTMLDivElement>) => void;
    onDragOver: (e: DragEvent<HTMLDivElement>) => void;
    onDrop: (e: DragEvent<HTMLDivElement>) => void;
    onDragEnd: () => void;
  };
}

function ModelRow({ model, index, total, reorderable, watch, canEdit, drop, dragging, onMove, onTransfer, dragHandlers }: RowProps) {
  const { t } = useProjectsT();
  const remove = useDeleteModel();
  const name = model.meta.name;
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      className={classes.row}
      role="listitem"
      data-testid="project-model"
      data-model-id={model.id}
      data-dragging={dragging || undefined}
      data-drop={drop ?? undefined}
      draggable={reorderable}
      {...(reorderable ? dragHandlers : {})}
    >
      <Group wrap="nowrap" gap="sm">
        {reorderable && (
          <span className={classes.handle} aria-hidden title={t('models.dragHint')}>
            <IconGripVertical size={18} />
          </span>
        )}
        <Text size="sm" c="dimmed" w={24} ta="right" aria-hidden>
          {index + 1}
        </Text>
        <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="wrap">
            <Anchor
              component={Link}
              to={`/models/${model.id}`}
              fw={600}
              lineClamp={2}
              title={name}
              style={{ overflowWrap: 'anywhere', minWidth: 0 }}
              data-testid="project-model-name"
            >
              {name}
            </Anchor>
            <LiveModelStatusBadge model={model} size="sm" watch={watch} />
          </Group>
          <Text size="xs" c="dimmed">
            {[model.task, t('updatedAt', { date: formatDateTime(model.dates.updated) })].filter(Boolean).join(' · ')}
            <Text span size="xs" hiddenFrom="sm">
              {' · '}
              <FileSize bytes={model.totals.bytes} />
            </Text>
          </Text>
        </Stack>
        <Text size="sm" c="dimmed" data-testid="project-model-size" style={{ whiteSpace: 'nowrap' }} visibleFrom="sm">
          <FileSize bytes={model.totals.bytes} />
        </Text>
        {reorderable && (
          <Group gap={2} wrap="nowrap">
            <Tooltip label={t('models.moveUp')} withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                disabled={index === 0}
                onClick={() => onMove(index, index - 1)}
                aria-label={t('models.moveUpName', { name })}
              >
                <IconArrowUp size={16} />
              </ActionIcon>
            </Tooltip>
            <Tooltip label={t('models.moveDown')} withArrow>
              <ActionIcon
                variant="subtle"
                color="gray"
                disabled={index === total - 1}
                onClick={() => onMove(index, index + 1)}
                aria-label={t('models.moveDownName', { name })}
              >
                <IconArrowDown size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        )}
        {(canEdit || model.abilities.canDelete) && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={t('models.actions', { name })}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              {canEdit && (
                <Menu.Item leftSection={<IconFolderShare size={16} />} onClick={() => onTransfer(model)}>
                  {t('models.transfer')}
                </Menu.Item>
              )}
              {model.abilities.canDelete && (
                <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => remove.mutate(model)}>
                  {t('models.delete')}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        )}
      </Group>
    </Paper>
  );
}

/**
 * A project's models in their order. Owners reorder by dragging a row or, from the keyboard, with
 * the move up and down buttons; each move is announced to screen readers.
 */
export function ProjectModels({ project, models, watch }: { project: Project; models: Model[]; watch: boolean }) {
  const { t } = useProjectsT();
  const reorder = useReorderProjectModels();
  const [dragId, setDragId] = useState<string | null>(null);
  const [over, setOver] = useState<number | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [transferring, setTransferring] = useState<Model | null>(null);
  const canEdit = project.abilities.canEdit;
  const reorderable = canEdit && models.length > 1;
  const from = dragId ? models.findIndex((m) => m.id === dragId) : -1;

  const move = (fromIndex: number, to: number) => {
    if (to < 0 || to >= models.length || fromIndex === to || fromIndex < 0) return;
    const ids = moveItem(
      models.map((m) => m.id),
      fromIndex,
      to,
    );
    reorder.mutate({ projectId: project.id, modelIds: ids });
    setAnnouncement(t('models.moved', { name: models[fromIndex]!.meta.name, position: to + 1, total: models.length }));
  };
  const endDrag = () => {
    setDragId(null);
    setOver(null);
  };

  return (
    <>
      <Stack gap="xs" role="list" aria-label={t('models.listLabel')} data-testid="project-models">
        {models.map((m, i) => (
          <ModelRow
            key={m.id}
            model={m}
            index={i}
            total={models.length}
            reorderable={reorderable}
            watch={watch}
            canEdit={canEdit}
            dragging={dragId === m.id}
            drop={over === i && from >= 0 && from !== i ? (from > i ? 'before' : 'after') : null}
            onMove={move}
            onTransfer={setTransferring}
            dragHandlers={{
              onDragStart: (e) => {
                e.dataTransfer.effectAllowed = 'move';
                e.dataTransfer.setData('text/plain', m.id);
                setDragId(m.id);
              },
              onDragOver: (e) => {
                if (!dragId) return;
                e.preventDefault();
                e.dataTransfer.dropEffect = 'move';
                if (over !== i) setOver(i);
              },
              onDrop: (e) => {
                e.preventDefault();
                move(from, i);
                endDrag();
              },
              onDragEnd: endDrag,
            }}
          />
        ))}
      </Stack>
      <VisuallyHidden aria-live="polite" data-testid="reorder-announcement">
        {announcement}
      </VisuallyHidden>
      {canEdit && <TransferModelDialog model={transferring} fromProjectId={project.id} onClose={() => setTransferring(null)} />}
    </>
  );
}
