import { Badge, Tooltip } from '@mantine/core';
import type { SaveQueue } from '../editor/save-queue';
import { useAnnotateT } from '../i18n';

const COLORS = { saved: 'teal', pending: 'gray', saving: 'blue', offline: 'orange', conflict: 'red', invalid: 'red' } as const;

/** What the save queue holds, in one badge (the page re-renders on each of its changes). */
export function SaveIndicator({ queue }: { queue: SaveQueue }) {
  const { t } = useAnnotateT();
  const state = queue.summary();
  const message = queue.all().find((e) => e.status === 'invalid')?.message;
  return (
    <Tooltip label={message ?? t(`save.${state}`)} withArrow>
      <Badge color={COLORS[state]} variant="light" data-testid="save-state" data-state={state}>
        {t(`save.${state}`)}
      </Badge>
    </Tooltip>
  );
}
