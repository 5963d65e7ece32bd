import { Group, Stack, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconCube, IconDatabase, IconFolder, IconUsersGroup, type Icon } from '@tabler/icons-react';
import { recentItemPath, type RecentItem, type RecentKind } from '@sightline/contracts';
import { Link } from 'react-router';
import { formatRelative } from '../../../lib/dates';
import { useSearchT } from '../i18n';
import classes from './item-list.module.css';

const ICONS: Record<RecentKind, { icon: Icon; color: string }> = {
  dataset: { icon: IconDatabase, color: 'teal' },
  project: { icon: IconFolder, color: 'brand' },
  model: { icon: IconCube, color: 'violet' },
  team: { icon: IconUsersGroup, color: 'orange' },
};

/** Items of any collection as one list of links: icon, name (truncated, whole in the title), kind and age. */
export function ItemList({ items, onOpen, testId }: { items: RecentItem[]; onOpen?: () => void; testId: string }) {
  const { t } = useSearchT();
  return (
    <Stack gap={2} component="ul" className={classes.list} data-testid={testId}>
      {items.map((item) => {
        const { icon: ItemIcon, color } = ICONS[item.kind];
        const kind = item.kind === 'model' && item.parentName ? t('inProject', { name: item.parentName }) : t(`kinds.${item.kind}`);
        return (
          <li key={`${item.kind}:${item.id}`}>
            <UnstyledButton component={Link} to={recentItemPath(item)} onClick={onOpen} className={classes.item} data-testid="item-link" data-kind={item.kind}>
              <Group gap="sm" wrap="nowrap">
                <ThemeIcon variant="light" color={color} size={34} radius="md" aria-hidden>
                  <ItemIcon size={18} />
                </ThemeIcon>
                <div className={classes.text}>
                  {/* Names and ages wrap (two lines at most for a name) rather than being cut in a narrow card. */}
                  <Text fw={600} size="sm" lineClamp={2} title={item.name} style={{ overflowWrap: 'anywhere' }} data-testid="item-name">
                    {item.name}
                  </Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {kind} · {t('updated', { time: formatRelative(item.updated) })}
                  </Text>
                </div>
              </Group>
            </UnstyledButton>
          </li>
        );
      })}
    </Stack>
  );
}
