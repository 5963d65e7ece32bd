import { Anchor, Paper, SimpleGrid, Text } from '@mantine/core';
import { IconFolders } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { FeaturePage } from '../../../components/feature-page';
import { PageHeader } from '../../../components/page-header';
import { useProjects } from '../api/get-projects';

export default function ProjectsIndexPage() {
  const { t } = useTranslation('pages');
  const list = useProjects();
  if (list.isPending) return <><PageHeader title={t('projects.title')} description={t('projects.description')} /><CardPlaceholders count={6} /></>;
  const items = list.data ?? [];
  if (!items.length) {
    return <FeaturePage title={t('projects.title')} description={t('projects.description')} icon={<IconFolders size={28} />} emptyTitle={t('projects.emptyTitle')} emptyBody={t('projects.emptyBody')} />;
  }
  return (
    <>
      <PageHeader title={t('projects.title')} description={t('projects.description')} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        {items.map((item) => (
          <Paper key={item.id} withBorder p="md" radius="md">
            <Anchor component={Link} to={`/projects/${item.id}`} fw={600}>
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
