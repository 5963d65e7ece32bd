import { Anchor, Badge, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCompass, IconCube, IconDatabase, IconFolders, IconSearch } from '@tabler/icons-react';
import { EXPLORE_KINDS, type ExploreItem, type ExploreKind } from '@sightline/contracts';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { formatRelative } from '../../../lib/dates';
import { useExplore } from '../api/get-explore';
import { useExploreT } from '../i18n';

const ICONS = { dataset: IconDatabase, project: IconFolders, model: IconCube } as const;
const pathOf = (item: Pick<ExploreItem, 'kind' | 'id'>) => `/${item.kind}s/${encodeURIComponent(item.id)}`;
const asKind = (v: string | null): ExploreKind | null => ((EXPLORE_KINDS as readonly string[]).includes(v ?? '') ? (v as ExploreKind) : null);

/** `/explore`: public items of other users, searchable, by kind (spec: users read others' public items; ADR 0030). */
export default function ExplorePage() {
  const { t } = useExploreT();
  const [params, setParams] = useSearchParams();
  const kind = asKind(params.get('kind'));
  const [text, setText] = useState(params.get('q') ?? '');
  const [q] = useDebouncedValue(text, 250);
  const list = useExplore({ q, kind });
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  const setParam = (key: 'q' | 'kind', value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="lg" maw={1200}>
      <PageHeader title={t('title')} description={t('description')} />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t('search')}
          aria-label={t('search')}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setParam('q', e.currentTarget.value.trim() || null);
          }}
          style={{ flex: '1 1 240px' }}
          maxLength={100}
          data-testid="explore-search"
        />
        <SegmentedControl
          value={kind ?? 'all'}
          onChange={(v) => setParam('kind', v === 'all' ? null : v)}
          data={[{ value: 'all', label: t('kind.all') }, ...EXPLORE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))]}
          aria-label={t('kindLabel')}
        />
      </Group>
      {list.isPending ? (
        <Text c="dimmed">{t('loading')}</Text>
      ) : items.length === 0 ? (
        <EmptyState
          icon={<IconCompass size={28} />}
          title={q.trim() ? t('noMatchTitle') : t('emptyTitle')}
          description={q.trim() ? t('noMatchBody') : t('emptyBody')}
        />
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="explore-results">
            {items.map((item) => (
              <ExploreCard key={`${item.kind}:${item.id}`} item={item} />
            ))}
          </SimpleGrid>
          {list.hasNextPage && (
            <Group justify="center">
              <Button variant="default" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
                {t('more')}
              </Button>
            </Group>
          )}
        </>
      )}
    </Stack>
  );
}

function ExploreCard({ item }: { item: ExploreItem }) {
  const { t } = useExploreT();
  const Icon = ICONS[item.kind];
  return (
    <Paper withBorder radius="md" p="md" data-testid="explore-item" style={{ minWidth: 0 }}>
      <Stack gap={6}>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <Icon size={18} stroke={1.7} aria-hidden style={{ flexShrink: 0, marginTop: 3 }} />
          <Anchor component={Link} to={pathOf(item)} fw={600} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {item.name}
          </Anchor>
        </Group>
        <Group gap={6} wrap="wrap">
          <Badge size="sm" variant="light">
            {t(`kind.one.${item.kind}`)}
          </Badge>
          {item.task && (
            <Badge size="sm" variant="outline" color="gray">
              {item.task}
            </Badge>
          )}
        </Group>
        {item.description && (
          <Text size="sm" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }}>
            {item.description}
          </Text>
        )}
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {[
            t('by', { user: item.owner.username }),
            item.parentName && t('inProject', { project: item.parentName }),
            t('updated', { when: formatRelative(item.updated) }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
      </Stack>
    </Paper>
  );
}
