import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconCube } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { FeaturePage } from '../../../components/feature-page';
import { PageHeader } from '../../../components/page-header';
import { useModels } from '../api/get-models';

export default function ModelsIndexPage() {
  const { t } = useTranslation('pages');
  const list = useModels();
  if (list.isPending) return <><PageHeader title={t('models.title')} description={t('models.description')} /><CardPlaceholders count={6} /></>;
  const items = list.data ?? [];
  if (!items.length) {
    return <FeaturePage title={t('models.title')} description={t('models.description')} icon={<IconCube size={28} />} emptyTitle={t('models.emptyTitle')} emptyBody={t('models.emptyBody')} />;
  }
  return (
    <>
      <PageHeader title={t('models.title')} description={t('models.description')} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {items.map((item) => (
          <Paper key={item.id} withBorder p="md" radius="md">
            <Anchor component={Link} to={`/models/${item.id}`} fw={600}>
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
