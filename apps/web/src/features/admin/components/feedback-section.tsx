import { Button, Group, Paper, Progress, Rating, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useFeedback } from '../api/get-feedback';
import { useAdminT } from '../i18n';

/** Ratings and reviews of the feedback dialog, with the average and the spread. */
export function FeedbackSection() {
  const { t } = useAdminT();
  const feedback = useFeedback();
  const first = feedback.data?.pages[0];
  if (!first) return <Text c="dimmed">…</Text>;
  // The summary is over all feedback and comes with the first page; later pages add entries.
  const data = { average: first.average, count: first.count ?? 0, distribution: first.distribution ?? [0, 0, 0, 0, 0] };
  const entries = feedback.data!.pages.flatMap((p) => p.entries);
  const max = Math.max(1, ...data.distribution);
  return (
    <Stack gap="lg" data-testid="admin-feedback">
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            {t('feedback.average')}
          </Text>
          <Group gap="sm" align="center">
            <Title order={2} fz={32} data-testid="feedback-average">
              {data.average === null ? '–' : data.average.toFixed(2)}
            </Title>
            <Rating value={data.average ?? 0} fractions={4} readOnly />
          </Group>
          <Text size="sm" c="dimmed">
            {t('feedback.count', { count: data.count })}
          </Text>
        </Paper>
        <Paper withBorder p="md" radius="md">
          <Stack gap={6}>
            {[5, 4, 3, 2, 1].map((r) => (
              <Group key={r} gap="xs" wrap="nowrap">
                <Text size="sm" w={16}>
                  {r}
                </Text>
                <Progress value={(data.distribution[r - 1]! / max) * 100} style={{ flex: 1 }} aria-label={t('feedback.stars', { count: r })} />
                <Text size="sm" w={32} ta="right">
                  {data.distribution[r - 1]}
                </Text>
              </Group>
            ))}
          </Stack>
        </Paper>
      </SimpleGrid>
      {entries.length === 0 ? (
        <Text c="dimmed">{t('feedback.empty')}</Text>
      ) : (
        entries.map((e) => (
          <Paper key={e.userId} withBorder p="md" radius="md">
            <Group justify="space-between" wrap="wrap" gap="xs">
              <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                {e.username} · {e.email}
              </Text>
              <Group gap="xs">
                {e.rating !== null && <Rating value={e.rating} readOnly size="sm" />}
                <Text size="xs" c="dimmed">
                  {e.updated ? new Date(e.updated).toLocaleDateString() : ''}
                </Text>
              </Group>
            </Group>
            {e.review && (
              <Text size="sm" mt={6} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {e.review}
              </Text>
            )}
          </Paper>
        ))
      )}
      {feedback.hasNextPage && (
        <Button variant="light" w="fit-content" loading={feedback.isFetchingNextPage} onClick={() => void feedback.fetchNextPage()}>
          {t('loadMore')}
        </Button>
      )}
    </Stack>
  );
}
