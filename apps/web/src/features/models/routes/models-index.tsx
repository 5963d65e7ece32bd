import { useState } from 'react';
import { topics } from '@sightline/contracts';
import { Button, Group, SimpleGrid, Stack } from '@mantine/core';
import { IconCube, IconPlayerPlay, IconUpload } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';
import { ShowArchivedSwitch, useShowArchived } from '../../../components/archive-controls';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { useMe } from '../../../lib/auth';
import { modelKeys } from '../../../lib/query-keys';
import { useTopic } from '../../../lib/use-topic';
import { isListed, MODELS_WITH_ARCHIVED, useModels, useModelsWithArchived } from '../api/get-models';
import { ModelCard } from '../components/model-card';
import { TrainDialog } from '../components/train-dialog/train-dialog';
import { UploadModelDialog } from '../components/upload-model-dialog';
import { useModelsT } from '../i18n';

export default function ModelsIndexPage() {
  const { t } = useModelsT();
  const { user } = useMe();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [showArchived] = useShowArchived();
  const active = useModels();
  const withArchived = useModelsWithArchived(showArchived);
  const list = showArchived ? withArchived : active;
  // ?train=1 / ?upload=1 (Home's and Welcome's cards) open their dialog at once.
  const [params] = useSearchParams();
  const [dialog, setDialog] = useState<'upload' | 'train' | null>(params.get('train') === '1' ? 'train' : params.get('upload') === '1' ? 'upload' : null);
  // Models created elsewhere (the ultralytics client, another tab) show up without a reload.
  useTopic(user ? topics.userModels(user.id) : null, () => {
    void queryClient.invalidateQueries({ queryKey: modelKeys.all, exact: true });
    void queryClient.invalidateQueries({ queryKey: MODELS_WITH_ARCHIVED });
  });

  const actions = (
    <Group gap="sm">
      <Button variant="default" leftSection={<IconUpload size={16} />} onClick={() => setDialog('upload')}>
        {t('upload.action')}
      </Button>
      <Button leftSection={<IconPlayerPlay size={16} />} onClick={() => setDialog('train')}>
        {t('trainModel')}
      </Button>
    </Group>
  );
  const items = (list.data ?? []).filter((m) => showArchived || isListed(m));

  return (
    <Stack gap={0}>
      <PageHeader title={t('title')} description={t('description')} actions={actions} />
      <Group mb="md">
        <ShowArchivedSwitch />
      </Group>
      {list.isPending ? (
        <CardPlaceholders count={6} />
      ) : items.length === 0 ? (
        <EmptyState icon={<IconCube size={28} />} title={t('emptyTitle')} description={t('emptyBody')} action={actions} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="models-list">
          {items.map((m) => (
            <ModelCard key={m.id} model={m} />
          ))}
        </SimpleGrid>
      )}
      <UploadModelDialog opened={dialog === 'upload'} onClose={() => setDialog(null)} onUploaded={(m) => navigate(`/models/${m.id}`)} />
      <TrainDialog opened={dialog === 'train'} onClose={() => setDialog(null)} />
    </Stack>
  );
}
