import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { FeaturePage } from '../../../components/feature-page';
import { PageHeader } from '../../../components/page-header';
import { useDatasets } from '../api/get-datasets';

export default function DatasetsIndexPage() {
  const { t } = useTranslation('pages');
  const list = useDatasets();
  if (list.isPending) return <><PageHeader title={t('datasets.title')} description={t('datasets.description')} /><CardPlaceholders count={6} /></>;
  const items = list.data ?? [];
  if (!items.length) {
    return <FeaturePage title={t('datasets.title')} description={t('datasets.description')} icon={<IconDatabase size={28} />} emptyTitle={t('datasets.emptyTitle')} emptyBody={t('datasets.emptyBody')} />;
  }
  return (
    <>
      <PageHeader title={t('datasets.title')} description={t('datasets.description')} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {items.map((item) => (
          <Paper key={item.id} withBorder p="md" radius="md">
            <Anchor component={Link} to={`/datasets/${item.id}`} fw={600}>
              {item.meta?.name ?? item.id}
            </Anchor>
            <Text size="xs" c="dimmed">
              {item.dates?.updated ? new Date(item.dates.updated).toLocaleString() : ''}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
    </>
  );
}
