import { useState } from 'react';
import { Alert, Anchor, Button, Group, Menu, Stack, Text, Title } from '@mantine/core';
import { IconArchive, IconChevronDown, IconCube, IconEdit, IconFolders, IconPlayerPlay, IconShare, IconTrash, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMediaQuery } from '@mantine/hooks';
import { BREAKPOINT_MOBILE, topics, type Model, type Project } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ArchivedNotice, useArchiveToggle } from '../../../components/archive-controls';
import { EmptyState } from '../../../components/empty-state';
import { PageLoader } from '../../../components/page-loader';
import { ItemTitle } from '../../../components/item-title';
import { PrivacyBadge } from '../../../components/privacy-badge';
import { ShareDialog } from '../../../components/share-dialog';
import { isApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/auth';
import { formatDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/i18n';
import { projectKeys } from '../../../lib/query-keys';
import { useTopic } from '../../../lib/use-topic';
import { isListedModel, ProjectCompareCharts, TrainDialog, UploadModelDialog } from '../../models';
import { ProjectEvaluationsCompare } from '../../evaluation';
import { setProjectArchived } from '../api/archive-project';
import { useDeleteProject } from '../api/delete-project';
import { useProject } from '../api/get-project';
import { useProjectModels } from '../api/get-project-models';
import { useRestoreProject } from '../api/restore-project';
import { useShareProject } from '../api/share-project';
import { ProjectCover } from '../components/project-cover';
import { ProjectFormDialog } from '../components/project-form-dialog';
import { ProjectModels } from '../components/project-models';
import { ProjectTotals } from '../components/project-totals';
import { useProjectsT } from '../i18n';

const TRASH_DAYS_MS = 30 * 86_400_000;
type Dialog = 'edit' | 'share' | 'upload' | 'train' | 'delete' | null;

function ProjectView({ project, models, modelsPending }: { project: Project; models: Model[]; modelsPending: boolean }) {
  const { t } = useProjectsT();
  const { user } = useMe();
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINT_MOBILE}px)`, false, { getInitialValueInEffect: false });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [dialog, setDialog] = useState<Dialog>(null);
  const share = useShareProject();
  const remove = useDeleteProject();
  const restore = useRestoreProject();
  const { abilities } = project;
  const { t: tc } = useTranslation();
  // Archiving (spec §4 dates.archived) takes the right to delete: both take the project out of the lists.
  const archive = useArchiveToggle(project.meta.name, (archived) => setProjectArchived(queryClient, project.id, archived));
  const deleted = Boolean(project.dates.deleted);
  const canAdd = abilities.canEdit && !deleted;
  // Changes from elsewhere (uploads from the ultralytics client, another tab).
  const refresh = () => void queryClient.invalidateQueries({ queryKey: projectKeys.detail(project.id) });
  useTopic(user ? topics.project(project.id) : null, refresh);
  // Models created in it elsewhere (a training run started from the ultralytics client) announce themselves on the owner's topic.
  useTopic(user && user.id === project.owner.uid ? topics.userModels(user.id) : null, (message) => {
    if (message.data && 'projectId' in message.data && message.data.projectId === project.id) refresh();
  });

  const addButtons = canAdd && (
    <Group gap="sm">
      <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setDialog('upload')}>
        {t('uploadModel')}
      </Button>
      <Button leftSection={<IconPlayerPlay size={16} />} onClick={() => setDialog('train')}>
        {t('trainModel')}
      </Button>
    </Group>
  );

  return (
    <Stack gap="lg" data-testid="project-page">
      {user && (
        <Anchor component={Link} to="/projects" size="sm">
          ← {t('back')}
        </Anchor>
      )}
      <Group justify="space-between" align="flex-start" gap="md" wrap="wrap">
        <Group gap="md" align="flex-start" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
          <ProjectCover project={project} height={72} width={mobile ? 72 : 112} radius="md" />
          <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
            <Group gap="sm" wrap="wrap">
              <ItemTitle name={project.meta.name} data-testid="project-name" style={{ flex: '0 1 auto', minWidth: 120, overflowWrap: 'anywhere' }} />
              <PrivacyBadge privacy={project.meta.privacy} />
            </Group>
            {project.meta.description && (
              <Text c="dimmed" size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="project-description">
                {project.meta.description}
              </Text>
            )}
            {!abilities.canEdit && project.owner.username && (
              <Text size="xs" c="dimmed">
                {t('by', { name: project.owner.username })}
              </Text>
            )}
          </Stack>
        </Group>
        {!deleted && (abilities.canEdit || abilities.canShare || abilities.canDelete) && (
          <Group gap="xs">
            {abilities.canShare && (
              <Button variant="default" leftSection={<IconShare size={16} />} onClick={() => setDialog('share')}>
                {t('share')}
              </Button>
            )}
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" rightSection={<IconChevronDown size={16} />}>
                  {t('more')}
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {abilities.canEdit && (
                  <Menu.Item leftSection={<IconEdit size={16} />} onClick={() => setDialog('edit')}>
                    {t('edit')}
                  </Menu.Item>
                )}
                {abilities.canDelete && (
                  <Menu.Item leftSection={<IconArchive size={16} />} onClick={() => archive.mutate(!project.dates.archived)} data-testid="archive-toggle">
                    {project.dates.archived ? tc('archive.unarchive') : tc('archive.archive')}
                  </Menu.Item>
                )}
                {abilities.canDelete && (
                  <Menu.Item
                    color="red"
                    leftSection={<IconTrash size={16} />}
                    onClick={() => (models.length > 0 ? setDialog('delete') : remove.mutate(project, { onSuccess: () => navigate('/projects') }))}
                    data-testid="project-delete"
                  >
                    {t('delete')}
                  </Menu.Item>
                )}
              </Menu.Dropdown>
            </Menu>
          </Group>
        )}
      </Group>

      {!deleted && project.dates.archived && (
        <ArchivedNotice canUnarchive={abilities.canDelete} loading={archive.isPending} onUnarchive={() => archive.mutate(false)} />
      )}

      {deleted && (
        <Alert color="red" variant="light" title={t('inTrashTitle')} data-testid="project-deleted">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('inTrashBody', { date: formatDate(new Date(new Date(project.dates.deleted!).getTime() + TRASH_DAYS_MS).toISOString()) })}</Text>
            {abilities.canDelete && (
              <Button size="xs" variant="white" color="red" loading={restore.isPending} onClick={() => restore.mutate(project.id)}>
                {t('restore')}
              </Button>
            )}
          </Group>
        </Alert>
      )}

      <ProjectTotals project={project} />

      <Stack gap="sm" component="section" aria-labelledby="project-models-title">
        <Group justify="space-between" align="center">
          <Title order={2} fz="lg" id="project-models-title">
            {t('models.title')}
          </Title>
          {models.length > 0 && addButtons}
        </Group>
        {modelsPending ? (
          <PageLoader fullHeight={false} />
        ) : models.length === 0 ? (
          <EmptyState
            icon={<IconCube size={28} />}
            title={t('models.emptyTitle')}
            description={canAdd ? t('models.emptyBody') : t('models.emptyReadOnly')}
            action={addButtons || undefined}
          />
        ) : (
          <>
            {abilities.canEdit && models.length > 1 && (
              <Text size="xs" c="dimmed">
                {t('models.reorderHint')}
              </Text>
            )}
            <ProjectModels project={project} models={models} watch={Boolean(user)} />
          </>
        )}
      </Stack>
      {models.some((m) => m.metrics.epochs > 0) && <ProjectCompareCharts projectId={project.id} models={models} />}
      {models.length >= 2 && <ProjectEvaluationsCompare projectId={project.id} />}

      {abilities.canEdit && <ProjectFormDialog opened={dialog === 'edit'} onClose={() => setDialog(null)} project={project} />}
      {abilities.canDelete && (
        <ConfirmDialog
          opened={dialog === 'delete'}
          onClose={() => setDialog(null)}
          title={t('deleteConfirm.title', { name: project.meta.name })}
          confirmLabel={t('deleteConfirm.confirm', { count: models.length })}
          loading={remove.isPending}
          onConfirm={() =>
            remove.mutate(project, {
              onSuccess: () => {
                setDialog(null);
                navigate('/projects');
              },
            })
          }
        >
          {t('deleteConfirm.body', { count: models.length })}
        </ConfirmDialog>
      )}
      {abilities.canShare && (
        <ShareDialog
          opened={dialog === 'share'}
          title={t('shareTitle', { name: project.meta.name })}
          privacy={project.meta.privacy}
          path={`/projects/${project.id}`}
          note={t('shareNote', { count: project.totals.models })}
          saving={share.isPending}
          onClose={() => setDialog(null)}
          onSave={(privacy) => share.mutate({ id: project.id, privacy }, { onSuccess: () => setDialog(null) })}
        />
      )}
      {canAdd && (
        <>
          <UploadModelDialog opened={dialog === 'upload'} onClose={() => setDialog(null)} project={{ id: project.id, name: project.meta.name }} />
          <TrainDialog opened={dialog === 'train'} onClose={() => setDialog(null)} projectId={project.id} />
        </>
      )}
    </Stack>
  );
}

/** Project page; open to everyone for unlisted and public projects (read-only unless the owner). */
export default function ProjectContentPage() {
  const { t } = useProjectsT();
  const { id = '' } = useParams();
  const { user } = useMe();
  const project = useProject(id);
  const models = useProjectModels(id);
  if (project.isPending) return <PageLoader />;
  if (project.isError) {
    const notFound = isApiError(project.error) && project.error.status === 404;
    return (
      <EmptyState
        icon={<IconFolders size={28} />}
        title={notFound ? t('notFoundTitle') : t('loadErrorTitle')}
        description={notFound ? t('notFoundBody') : isApiError(project.error) ? errorMessage(project.error.code, project.error.message) : String(project.error)}
        action={
          user ? (
            <Button component={Link} to="/projects" variant="light">
              {t('back')}
            </Button>
          ) : undefined
        }
      />
    );
  }
  return <ProjectView project={project.data} models={(models.data ?? []).filter(isListedModel)} modelsPending={models.isPending} />;
}
