import { Alert, Card, Skeleton, Stack } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { EmptyState } from '../../../components/empty-state';
import { useRecent } from '../api/get-recent';
import { useSearchT } from '../i18n';
import { ItemList } from './item-list';

/** Home's Recent card (HUB's): the datasets, projects and models last changed, across collections. */
export function RecentCard({ limit = 6 }: { limit?: number }) {
  const { t } = useSearchT();
  const recent = useRecent(limit);
  if (recent.isPending) {
    return (
      <Stack gap="xs" aria-label={t('recentLoading')} aria-busy>
        {Array.from({ length: 3 }, (_, i) => (
          <Skeleton key={i} h={44} radius="md" />
        ))}
      </Stack>
    );
  }
  if (recent.isError) {
    return (
      <Alert color="red" variant="light">
        {t('recentFailed')}
      </Alert>
    );
  }
  const items = recent.data.results;
  if (items.length === 0) return <EmptyState icon={<IconClockHour4 size={28} />} title={t('recentEmptyTitle')} description={t('recentEmptyBody')} />;
  return (
    <Card withBorder radius="md" p="xs">
      <ItemList items={items} testId="recent-items" />
    </Card>
  );
}
