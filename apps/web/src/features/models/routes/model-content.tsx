import { useState } from 'react';
import { Alert, Anchor, Breadcrumbs, Button, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconArchive, IconCube, IconEdit, IconPlayerPlay, IconShare, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { retrainableStatus, type Model } from '@sightline/contracts';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ArchivedNotice, useArchiveToggle } from '../../../components/archive-controls';
import { EmptyState } from '../../../components/empty-state';
import { PageLoader } from '../../../components/page-loader';
import { HeaderActions } from '../../../components/header-actions';
import { ItemTitle } from '../../../components/item-title';
import { PrivacyBadge } from '../../../components/privacy-badge';
import { ShareDialog } from '../../../components/share-dialog';
import { isApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/auth';
import { formatDate } from '../../../lib/dates';
import { errorMessage } from '../../../lib/i18n';
import { setModelArchived } from '../api/archive-model';
import { useDeleteModel } from '../api/delete-model';
import { useModel } from '../api/get-model';
import { useRestoreModel } from '../api/restore-model';
import { useShareModel } from '../api/share-model';
import { EditModelDialog } from '../components/edit-model-dialog';
import { ModelDeploy } from '../components/model-deploy';
import { ModelOverview } from '../components/model-overview';
import { ModelStatusBadge, runReason } from '../components/model-status-badge';
import { PreviewPanel } from '../components/preview/preview-panel';
import { TrainDialog } from '../components/train-dialog/train-dialog';
import { TrainingPanel } from '../components/training/training-panel';
import { useModelStatus, useModelWatch } from '../hooks/use-model-status';
import { useModelsT } from '../i18n';
import { ModelCostCard } from '../../billing';
import { CloudRunCard } from '../../agents';
import { ExportWorkerNotice, ModelExports } from '../../exports';
import { EvaluatePanel } from '../../evaluation';

const TABS = ['overview', 'training', 'preview', 'evaluate', 'deploy'] as const;
type Tab = (typeof TABS)[number];
const TRASH_DAYS_MS = 30 * 86_400_000;

type Dialog = 'edit' | 'share' | 'train' | null;

function ModelView({ model }: { model: Model }) {
  const { t } = useModelsT();
  const { user } = useMe();
  const navigate = useNavigate();
  const status = useModelStatus(model.dates, model.training);
  // Signed-out viewers have no socket; owners and readers watch until Trained.
  useModelWatch(model, status, Boolean(user));
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab') as Tab | null;
  const tab: Tab = requested && TABS.includes(requested) ? requested : 'overview';
  const [dialog, setDialog] = useState<Dialog>(null);
  const share = useShareModel();
  const remove = useDeleteModel();
  const restore = useRestoreModel();
  const { abilities } = model;
  const { t: tc } = useTranslation();
  const queryClient = useQueryClient();
  // Archiving (spec §4 dates.archived) takes the right to delete: both take the model out of the lists.
  const archive = useArchiveToggle(model.meta.name, (archived) => setModelArchived(queryClient, model.id, archived));
  const deleted = Boolean(model.dates.deleted);
  // A Stopped, Failed or timed-out model trains again (ADR 0020).
  const trainable = abilities.canEdit && !deleted && (status === 'New' || retrainableStatus(status));

  const selectTab = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (!value || value === 'overview') next.delete('tab');
    else next.set('tab', value);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap="lg" data-testid="model-page">
      <Stack gap={6}>
        {model.project.id && (
          <Breadcrumbs separatorMargin={6}>
            {user && (
              <Anchor component={Link} to="/projects" size="sm">
                {t('projectsLink')}
              </Anchor>
            )}
            <Anchor component={Link} to={`/projects/${model.project.id}`} size="sm" data-testid="model-project-link">
              {model.project.name ?? model.project.id}
            </Anchor>
          </Breadcrumbs>
        )}
        <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
          <Stack gap={6} style={{ minWidth: 0, flex: '1 1 260px' }}>
            <Group gap="sm" align="center" wrap="wrap">
              <ItemTitle name={model.meta.name} data-testid="model-name" style={{ flex: '0 1 auto', minWidth: 160, overflowWrap: 'anywhere' }} />
              <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                <ModelStatusBadge status={status} size="lg" reason={runReason(status, model.training)} />
                <PrivacyBadge privacy={model.meta.privacy} />
              </Group>
            </Group>
            {model.meta.description && (
              <Text c="dimmed" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {model.meta.description}
              </Text>
            )}
          </Stack>
          {!deleted && (
            <HeaderActions
              actions={[
                ...(trainable
                  ? [{ key: 'train', label: t('train'), icon: <IconPlayerPlay size={16} />, variant: 'filled' as const, onClick: () => setDialog('train') }]
                  : []),
                ...(abilities.canShare ? [{ key: 'share', label: t('share'), icon: <IconShare size={16} />, onClick: () => setDialog('share') }] : []),
                ...(abilities.canEdit ? [{ key: 'edit', label: t('editAction'), icon: <IconEdit size={16} />, onClick: () => setDialog('edit') }] : []),
                ...(abilities.canDelete
                  ? [
                      {
                        key: 'archive',
                        label: model.dates.archived ? tc('archive.unarchive') : tc('archive.archive'),
                        icon: <IconArchive size={16} />,
                        loading: archive.isPending,
                        onClick: () => archive.mutate(!model.dates.archived),
                      },
                      {
                        key: 'delete',
                        label: t('delete'),
                        icon: <IconTrash size={16} />,
                        variant: 'light' as const,
                        color: 'red',
                        loading: remove.isPending,
                        onClick: () => remove.mutate(model, { onSuccess: () => navigate(model.project.id ? `/projects/${model.project.id}` : '/models') }),
                      },
                    ]
                  : []),
              ]}
            />
          )}
        </Group>
      </Stack>

      {!deleted && model.dates.archived && (
        <ArchivedNotice canUnarchive={abilities.canDelete} loading={archive.isPending} onUnarchive={() => archive.mutate(false)} />
      )}

      {deleted && (
        <Alert color="red" variant="light" title={t('inTrashTitle')} data-testid="model-deleted">
          <Group justify="space-between" gap="sm">
            <Text size="sm">{t('inTrashBody', { date: formatDate(new Date(new Date(model.dates.deleted!).getTime() + TRASH_DAYS_MS).toISOString()) })}</Text>
            {abilities.canDelete && (
              <Button size="xs" variant="white" color="red" loading={restore.isPending} onClick={() => restore.mutate(model.id)}>
                {t('restore')}
              </Button>
            )}
          </Group>
        </Alert>
      )}

      <Tabs value={tab} onChange={selectTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="overview">{t('tabs.overview')}</Tabs.Tab>
          <Tabs.Tab value="training">{t('tabs.training')}</Tabs.Tab>
          <Tabs.Tab value="preview">{t('tabs.preview')}</Tabs.Tab>
          <Tabs.Tab value="evaluate">{t('tabs.evaluate')}</Tabs.Tab>
          <Tabs.Tab value="deploy">{t('tabs.deploy')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview" pt="lg">
          <Stack gap="lg">
            <ExportWorkerNotice model={model} />
            <ModelOverview model={model} />
            <ModelCostCard modelId={model.id} isOwner={Boolean(user) && user?.id === model.owner.uid} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="training" pt="lg">
          <Stack gap="lg">
            <CloudRunCard modelId={model.id} isOwner={Boolean(user) && user?.id === model.owner.uid} />
            <TrainingPanel model={model} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="lg">
          <Stack gap="lg">
            <ExportWorkerNotice model={model} />
            <PreviewPanel model={model} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="evaluate" pt="lg">
          <EvaluatePanel model={model} signedIn={Boolean(user)} />
        </Tabs.Panel>
        <Tabs.Panel value="deploy" pt="lg">
          <Stack gap="lg">
            <ExportWorkerNotice model={model} />
            <ModelExports model={model} />
            <ModelDeploy model={model} signedIn={Boolean(user)} />
          </Stack>
        </Tabs.Panel>
      </Tabs>

      {abilities.canEdit && <EditModelDialog model={model} opened={dialog === 'edit'} onClose={() => setDialog(null)} editConfig={status !== 'Trained'} />}
      {abilities.canShare && (
        <ShareDialog
          opened={dialog === 'share'}
          title={t('shareTitle', { name: model.meta.name })}
          privacy={model.meta.privacy}
          path={`/models/${model.id}`}
          note={model.project.id ? t('shareNote') : undefined}
          saving={share.isPending}
          onClose={() => setDialog(null)}
          onSave={(privacy) => share.mutate({ id: model.id, privacy }, { onSuccess: () => setDialog(null) })}
        />
      )}
      {trainable && <TrainDialog opened={dialog === 'train'} onClose={() => setDialog(null)} modelId={model.id} projectId={model.project.id ?? undefined} />}
    </Stack>
  );
}

/** Model page; open to everyone for unlisted and public models (read-only unless the owner). */
export default function ModelContentPage() {
  const { t } = useModelsT();
  const { id = '' } = useParams();
  const { user } = useMe();
  const query = useModel(id);
  if (query.isPending) return <PageLoader />;
  if (query.isError) {
    const notFound = isApiError(query.error) && query.error.status === 404;
    return (
      <EmptyState
        icon={<IconCube size={28} />}
        title={notFound ? t('notFoundTitle') : t('loadErrorTitle')}
        description={notFound ? t('notFoundBody') : isApiError(query.error) ? errorMessage(query.error.code, query.error.message) : String(query.error)}
        action={
          user ? (
            <Button component={Link} to="/models" variant="light">
              {t('back')}
            </Button>
          ) : undefined
        }
      />
    );
  }
  return <ModelView model={query.data} />;
}
