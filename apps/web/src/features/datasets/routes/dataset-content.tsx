import { Alert, Anchor, Badge, Breadcrumbs, Button, Stack, Tabs, Text } from '@mantine/core';
import { IconAlertTriangle, IconChartBar, IconDatabaseOff, IconHistory, IconPhoto } from '@tabler/icons-react';
import { Link, useParams, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/empty-state';
import { PageLoader } from '../../../components/page-loader';
import { isApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/auth';
import { useStore } from '../../../lib/create-store';
import { realtime } from '../../../lib/realtime';
import { useResumableUpload } from '../../../lib/resumable-uploads';
import { useDataset } from '../api/get-dataset';
import { ArchiveUploadPanel } from '../components/archive-upload-panel';
import { DatasetHeader } from '../components/dataset-header';
import { ImagesTab } from '../components/images-tab';
import { OverviewTab } from '../components/overview-tab';
import { ReportTab } from '../components/report-tab';
import type { DiffPair, DiffSide } from '../api/get-dataset-diff';
import { VersionsTab } from '../components/versions-tab';
import { useDatasetEditsRealtime } from '../hooks/use-dataset-edits-realtime';
import { useDatasetRealtime } from '../hooks/use-dataset-realtime';
import { useUploadsLeaveNotice } from '../hooks/use-uploads-leave-notice';
import { useDatasetsT } from '../i18n';

const TABS = ['images', 'overview', 'versions', 'errors'] as const;
const POLLED = ['Uploading', 'Loading', 'Retrying'];
type Tab = (typeof TABS)[number];

/**
 * /datasets/:id — no auth guard: unlisted and public datasets open signed out, read-only
 * (what the viewer may do comes from the server's `abilities`).
 */
export default function DatasetContentPage() {
  const { t } = useDatasetsT();
  const { id = '' } = useParams();
  const { user } = useMe();
  const [params, setParams] = useSearchParams();
  const realtimeOpen = useStore(realtime.status) === 'open';
  // A dataset on its way is polled: often without a realtime connection (signed out), rarely with one
  // (an event may pass between the first read and the subscription).
  const query = useDataset(id, { refetchInterval: (q) => (POLLED.includes(q.state.data?.status ?? '') ? (realtimeOpen ? 10_000 : 3000) : false) });
  const dataset = query.data;
  useDatasetRealtime(dataset);
  useDatasetEditsRealtime(dataset?.id, !!dataset?.dates.processed);
  const upload = useResumableUpload(id);
  useUploadsLeaveNotice(`/datasets/${id}`);

  const requested = params.get('tab') as Tab | null;
  const fallback: Tab = dataset && !dataset.dates.processed && (dataset.status === 'Failed' || dataset.report?.errorCount) ? 'errors' : 'images';
  const tab: Tab = requested && TABS.includes(requested) ? requested : fallback;
  const select = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (!value || value === fallback) next.delete('tab');
    else next.set('tab', value);
    if (value !== 'versions') for (const key of ['version', 'from', 'to']) next.delete(key);
    setParams(next, { replace: true });
  };
  // The Versions tab keeps its diff in the address (?from=1&to=working), so that a diff can be linked; ?version=N is the
  // version a model page links to.
  const side = (value: string | null): DiffSide | null => (value === 'working' ? 'working' : value && /^\d+$/.test(value) ? Number(value) : null);
  const from = side(params.get('from'));
  const to = side(params.get('to'));
  const diff: DiffPair | null = typeof from === 'number' && to !== null ? { from, to } : null;
  const highlight = side(params.get('version'));
  const setDiff = (value: DiffPair | null) => {
    const next = new URLSearchParams(params);
    next.set('tab', 'versions');
    if (value) {
      next.set('from', String(value.from));
      next.set('to', String(value.to));
    } else {
      next.delete('from');
      next.delete('to');
    }
    setParams(next, { replace: true });
  };

  if (query.isPending) return <PageLoader />;
  if (!dataset || dataset.dates.deleted) {
    const notFound = !dataset ? isApiError(query.error) && query.error.status === 404 : true;
    return (
      <EmptyState
        icon={<IconDatabaseOff size={28} />}
        title={notFound ? t('content.notFoundTitle') : t('content.errorTitle')}
        description={notFound ? t('content.notFoundBody') : t('content.errorBody')}
        action={
          user ? (
            <Button component={Link} to="/datasets" variant="light">
              {t('content.back')}
            </Button>
          ) : (
            <Button component={Link} to="/signin" variant="light">
              {t('content.signIn')}
            </Button>
          )
        }
      />
    );
  }

  const liveUpload = upload && (upload.status === 'uploading' || upload.status === 'paused');
  const needsArchive =
    dataset.abilities.canEdit &&
    !!user &&
    !liveUpload &&
    (['Initiating', 'Uploading', 'Failed'].includes(dataset.status) || (upload?.status === 'error' && dataset.status !== 'Ready'));
  const processed = !!dataset.dates.processed;
  const report = dataset.report;

  return (
    <Stack gap="md">
      {user && (
        <Breadcrumbs>
          <Anchor component={Link} to="/datasets" size="sm">
            {t('index.title')}
          </Anchor>
          <Text size="sm" c="dimmed" truncate maw={360}>
            {dataset.meta.name}
          </Text>
        </Breadcrumbs>
      )}
      <DatasetHeader dataset={dataset} />
      {dataset.status === 'Failed' && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={t('content.failedTitle')} data-testid="failed-alert">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {dataset.error === 'error/server-offline' ? t('content.serverOffline') : (dataset.error ?? t('report.failedUnknown'))}
          </Text>
        </Alert>
      )}
      {needsArchive && user && <ArchiveUploadPanel dataset={dataset} uid={user.id} />}
      <Tabs value={tab} onChange={select} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="images" leftSection={<IconPhoto size={16} aria-hidden />}>
            {t('content.tabImages')}
          </Tabs.Tab>
          <Tabs.Tab value="overview" leftSection={<IconChartBar size={16} aria-hidden />}>
            {t('content.tabOverview')}
          </Tabs.Tab>
          <Tabs.Tab value="versions" leftSection={<IconHistory size={16} aria-hidden />} data-testid="tab-versions">
            {t('content.tabVersions')}
          </Tabs.Tab>
          <Tabs.Tab
            value="errors"
            leftSection={<IconAlertTriangle size={16} aria-hidden />}
            rightSection={
              report && report.errorCount + report.warningCount > 0 ? (
                <Badge size="xs" circle={false} variant="filled" color={report.errorCount ? '#c02626' : '#a34a00'}>
                  {report.errorCount || report.warningCount}
                </Badge>
              ) : null
            }
          >
            {t('content.tabErrors')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="images" pt="md">
          {processed ? <ImagesTab dataset={dataset} /> : <NotReady status={dataset.status} />}
        </Tabs.Panel>
        <Tabs.Panel value="overview" pt="md">
          {processed ? <OverviewTab dataset={dataset} /> : <NotReady status={dataset.status} />}
        </Tabs.Panel>
        <Tabs.Panel value="versions" pt="md">
          {processed ? (
            <VersionsTab dataset={dataset} highlight={typeof highlight === 'number' ? highlight : null} diff={diff} onDiff={setDiff} />
          ) : (
            <NotReady status={dataset.status} />
          )}
        </Tabs.Panel>
        <Tabs.Panel value="errors" pt="md">
          <ReportTab dataset={dataset} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function NotReady({ status }: { status: string }) {
  const { t } = useDatasetsT();
  return (
    <Text c="dimmed" ta="center" py="xl" data-testid="not-ready">
      {t(`content.notReady.${status}`, { defaultValue: t('content.notReady.other') })}
    </Text>
  );
}
