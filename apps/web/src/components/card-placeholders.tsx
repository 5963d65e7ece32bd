import { Card, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Placeholder cards while a list loads (teams show ten, spec §2). */
export function CardPlaceholders({ count = 10 }: { count?: number }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} role="status" aria-busy="true" aria-label={t('loading')}>
      {Array.from({ length: count }, (_, i) => (
        <Card key={i} withBorder data-testid="card-placeholder">
          <Stack gap="sm">
            <Skeleton height={90} />
            <Skeleton height={14} width="60%" />
            <Skeleton height={10} width="85%" />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
