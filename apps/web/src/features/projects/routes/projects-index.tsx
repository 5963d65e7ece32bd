import { useState } from 'react';
import { topics } from '@sightline/contracts';
import { Button, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconFolderPlus, IconFolders } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { ShowArchivedSwitch, useShowArchived } from '../../../components/archive-controls';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { useMe } from '../../../lib/auth';
import { projectKeys } from '../../../lib/query-keys';
import { useTopic } from '../../../lib/use-topic';
import { isListedProject, PROJECTS_WITH_ARCHIVED, useProjects, useProjectsWithArchived } from '../api/get-projects';
import { ProjectCard } from '../components/project-card';
import { ProjectFormDialog } from '../components/project-form-dialog';
import { useProjectsT } from '../i18n';

export default function ProjectsIndexPage() {
  const { t } = useProjectsT();
  const { user } = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [showArchived] = useShowArchived();
  const active = useProjects();
  const withArchived = useProjectsWithArchived(showArchived);
  const list = showArchived ? withArchived : active;
  // ?create=1 (Home's and Welcome's "Create a project") opens the dialog at once.
  const [params] = useSearchParams();
  const [creating, setCreating] = useState(params.get('create') === '1');
  useTopic(user ? topics.userProjects(user.id) : null, () => {
    void queryClient.invalidateQueries({ queryKey: projectKeys.all, exact: true });
    void queryClient.invalidateQueries({ queryKey: PROJECTS_WITH_ARCHIVED });
  });

  const createButton = (
    <Button leftSection={<IconFolderPlus size={16} />} onClick={() => setCreating(true)}>
      {t('create')}
    </Button>
  );
  const items = (list.data ?? []).filter((p) => showArchived || isListedProject(p));
  return (
    <Stack gap={0}>
      <PageHeader title={t('title')} description={t('description')} actions={createButton} />
      <Group mb="md">
        <ShowArchivedSwitch />
      </Group>
      {list.isPending ? (
        <CardPlaceholders count={6} />
      ) : items.length === 0 ? (
        <EmptyState icon={<IconFolders size={28} />} title={t('emptyTitle')} description={t('emptyBody')} action={createButton} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="projects-list">
          {items.map((p) => (
            <ProjectCard key={p.id} project={p} />
          ))}
        </SimpleGrid>
      )}
      <ProjectFormDialog opened={creating} onClose={() => setCreating(false)} onCreated={(p) => navigate(`/projects/${p.id}`)} />
    </Stack>
  );
}
