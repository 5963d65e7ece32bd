import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Center, Group, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDatabasePlus, IconFilterOff } from '@tabler/icons-react';
import { DATASET_TASKS_UI, PRIVACIES } from '@sightline/contracts';
import { useSearchParams } from 'react-router';
import { ShowArchivedSwitch } from '../../../components/archive-controls';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { useMe } from '../../../lib/auth';
import { errorMessage } from '../../../lib/i18n';
import { isApiError } from '../../../lib/api-client';
import { useResumableUploads } from '../../../lib/resumable-uploads';
import { loadDatasets, loadMoreDatasets } from '../api/get-datasets';
import { CreateDatasetDialog } from '../components/create-dataset-dialog';
import { DatasetCard } from '../components/dataset-card';
import { useDatasetsRealtime, useProcessingProgress } from '../hooks/use-datasets-realtime';
import { useUploadsLeaveNotice } from '../hooks/use-uploads-leave-notice';
import { useDatasetsT } from '../i18n';
import { isListed, useDatasetsList, useDatasetsPaging, type DatasetFilters } from '../stores/datasets-list';

const FILTER_KEYS = ['task', 'provider', 'privacy'] as const;
/** The URL's filters: the three selects and the "Show archived" switch (`archived=1`). */
const URL_FILTERS = [...FILTER_KEYS, 'archived'] as const;

/** /datasets: the caller's datasets with filters, live status, and the create dialog. */
export default function DatasetsIndexPage() {
  const { t } = useDatasetsT();
  const { user } = useMe();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(params.get('create') === '1');
  const filters = useMemo<DatasetFilters>(() => Object.fromEntries(URL_FILTERS.map((k) => [k, params.get(k) ?? undefined]).filter(([, v]) => v)), [params]);
  const filterKey = JSON.stringify(filters);
  const list = useDatasetsList();
  const paging = useDatasetsPaging();
  const items = list.all.filter((d) => isListed(d, filters));
  const uid = user?.id;

  useEffect(() => {
    void loadDatasets(JSON.parse(filterKey) as DatasetFilters, uid ?? null).catch(() => undefined);
  }, [filterKey, uid]);
  useDatasetsRealtime(uid);
  // Processing progress, and a slow re-read of uploads this browser is not sending (interrupted, or
  // resumed elsewhere): their state changes with no local event.
  const running = useResumableUploads();
  const sendingHere = new Set(running.filter((u) => u.status === 'uploading' || u.status === 'paused').map((u) => u.id));
  useProcessingProgress(
    items
      .filter((d) => d.status === 'Loading' || d.status === 'Retrying' || ((d.status === 'Uploading' || d.status === 'Initiating') && !sendingHere.has(d.id)))
      .map((d) => d.id),
  );
  useUploadsLeaveNotice('/datasets');

  const setFilter = (key: (typeof FILTER_KEYS)[number], value: string | null) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  const anyFilter = FILTER_KEYS.some((k) => params.get(k));
  const loadingFirst = !list.initialized && (paging.loading || !paging.error);

  const createButton = (variant: 'filled' | 'light') => (
    <Button
      variant={variant}
      leftSection={<IconDatabasePlus size={18} aria-hidden />}
      onClick={() => setCreating(true)}
      data-testid={variant === 'filled' ? 'create-dataset' : undefined}
    >
      {t('index.create')}
    </Button>
  );

  return (
    <Stack gap="md">
      <PageHeader title={t('index.title')} description={t('index.description')} actions={createButton('filled')} />
      <Group gap="sm" wrap="wrap" role="group" aria-label={t('index.filters')}>
        <Select
          aria-label={t('index.filterTask')}
          placeholder={t('index.allTasks')}
          data={DATASET_TASKS_UI.map((v) => ({ value: v, label: t(`tasks.${v}`) }))}
          value={params.get('task')}
          onChange={(v) => setFilter('task', v)}
          clearable
          w={190}
          data-testid="filter-task"
        />
        <Select
          aria-label={t('index.filterProvider')}
          placeholder={t('index.allProviders')}
          data={[
            { value: 'hub', label: t('providers.hub') },
            { value: 'roboflow', label: t('providers.roboflow') },
          ]}
          value={params.get('provider')}
          onChange={(v) => setFilter('provider', v)}
          clearable
          w={190}
        />
        <Select
          aria-label={t('index.filterPrivacy')}
          placeholder={t('index.allPrivacies')}
          data={PRIVACIES.map((v) => ({ value: v, label: t(`privacy.${v}`) }))}
          value={params.get('privacy')}
          onChange={(v) => setFilter('privacy', v)}
          clearable
          w={190}
        />
        <ShowArchivedSwitch />
        {anyFilter && (
          <Button variant="subtle" leftSection={<IconFilterOff size={16} aria-hidden />} onClick={() => setParams(new URLSearchParams(), { replace: true })}>
            {t('index.clearFilters')}
          </Button>
        )}
        {list.initialized && (
          <Text size="sm" c="dimmed" ml="auto" aria-live="polite">
            {t('index.count', { count: paging.total })}
          </Text>
        )}
      </Group>

      {paging.error != null && !list.initialized ? (
        <Alert color="red" variant="light" title={t('index.loadFailed')}>
          {isApiError(paging.error) ? errorMessage(paging.error.code, paging.error.message) : t('index.loadFailed')}
          <Button size="xs" variant="light" color="red" mt="sm" display="block" onClick={() => void loadDatasets(filters, uid ?? null).catch(() => undefined)}>
            {t('index.retry')}
          </Button>
        </Alert>
      ) : loadingFirst ? (
        <CardPlaceholders count={6} />
      ) : items.length === 0 ? (
        anyFilter ? (
          <EmptyState icon={<IconFilterOff size={28} />} title={t('index.noMatchTitle')} description={t('index.noMatchBody')} />
        ) : (
          <EmptyState icon={<IconDatabasePlus size={28} />} title={t('index.emptyTitle')} description={t('index.emptyBody')} action={createButton('light')} />
        )
      ) : (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} data-testid="dataset-grid">
            {items.map((d) => (
              <DatasetCard key={d.id} dataset={d} />
            ))}
          </SimpleGrid>
          {paging.lastRecordId && items.length < paging.total && (
            <Center>
              <Button variant="default" loading={paging.loadingMore} onClick={() => void loadMoreDatasets()}>
                {t('index.loadMore')}
              </Button>
            </Center>
          )}
        </>
      )}
      <CreateDatasetDialog opened={creating} onClose={() => setCreating(false)} />
    </Stack>
  );
}
