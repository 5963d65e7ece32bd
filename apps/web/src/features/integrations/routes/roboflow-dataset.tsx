import { Alert, Anchor, Badge, Button, Card, Group, Loader, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconDownload, IconRefresh } from '@tabler/icons-react';
import type { RoboflowVersion } from '@sightline/contracts';
import { Link, useParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { useRoboflowImports } from '../api/get-roboflow-imports';
import { useRoboflowPreviews } from '../api/get-roboflow-previews';
import { useRoboflowProject } from '../api/get-roboflow-project';
import { useImportVersion } from '../api/import-version';
import { useSyncProject } from '../api/sync-project';
import { ImportStatus } from '../components/import-status';
import { colorFor, PreviewGrid } from '../components/preview-grid';
import { STATUS_COLORS } from '../components/project-card';
import { useIntegrationsT } from '../i18n';

const messageOf = (err: unknown) => (isApiError(err) ? err.message : String(err));

function VersionRow({ ws, slug, version, importable }: { ws: string; slug: string; version: RoboflowVersion; importable: boolean }) {
  const { t } = useIntegrationsT();
  const start = useImportVersion();
  const imports = useRoboflowImports();
  const live = imports.data?.find((i) => i.id === version.import?.id) ?? version.import;
  return (
    <Card withBorder radius="md" padding="sm" data-testid="roboflow-version" data-version={version.number}>
      <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
        <div>
          <Text fw={600}>
            {t('page.version', { n: version.number })}
            {version.name ? ` · ${version.name}` : ''}
          </Text>
          <Text size="xs" c="dimmed">
            {t('project.images', { count: version.images })} · {t('project.splits', version.splits)}
            {version.created ? ` · ${new Date(version.created).toLocaleDateString()}` : ''}
          </Text>
        </div>
        {!live && (
          <Button
            size="xs"
            leftSection={<IconDownload size={14} />}
            disabled={!importable || version.images === 0}
            loading={start.isPending}
            aria-label={`${t('page.import')} ${t('page.version', { n: version.number })}`}
            onClick={() =>
              start.mutate([ws, slug, version.number], {
                onSuccess: () => notifications.success(t('page.started', { n: version.number })),
                onError: (e) => notifications.error(messageOf(e)),
              })
            }
          >
            {t('page.import')}
          </Button>
        )}
      </Group>
      {version.images === 0 && (
        <Text size="xs" c="dimmed" mt={4}>
          {t('page.noImages')}
        </Text>
      )}
      {live && (
        <div style={{ marginTop: 8 }}>
          <ImportStatus item={live} />
        </div>
      )}
    </Card>
  );
}

/** `/integrations/roboflow/datasets/{workspace/project}`: versions, class and split counts, 5 previews, import. */
export default function RoboflowDatasetPage() {
  const { t } = useIntegrationsT();
  const { id = '' } = useParams();
  const [ws = '', slug = ''] = id.split('/');
  const detail = useRoboflowProject(ws, slug);
  const previews = useRoboflowPreviews(ws, slug, Boolean(detail.data));
  const sync = useSyncProject();
  const back = (
    <Anchor component={Link} to="/settings?tab=integrations" size="sm">
      <Group gap={4}>
        <IconArrowLeft size={14} />
        {t('page.back')}
      </Group>
    </Anchor>
  );
  if (detail.isLoading) return <Loader />;
  if (detail.error || !detail.data)
    return (
      <Stack>
        {back}
        <Alert color="red" title={t('page.notLinked')}>
          {messageOf(detail.error)}
        </Alert>
      </Stack>
    );
  const { project, versions } = detail.data;
  const classes = Object.entries(project.classes).sort((a, b) => b[1] - a[1]);
  const classNames = Object.keys(project.classes).sort();
  const total = project.splits.train + project.splits.valid + project.splits.test || 1;
  return (
    <Stack gap="lg" maw={1200} data-testid="roboflow-page">
      {back}
      <PageHeader
        title={project.name}
        description={
          <Group gap={6} component="span" wrap="wrap">
            <Badge variant="light" color={project.unsupportedReason ? 'gray' : STATUS_COLORS[project.status]}>
              {t(`status.${project.status}`)}
            </Badge>
            <Text span size="sm" c="dimmed">
              {t(`types.${project.type}`, { defaultValue: project.type })} · {project.id} · {t('project.images', { count: project.images })}
            </Text>
          </Group>
        }
        actions={
          project.task && versions.length > 0 ? (
            <Button
              variant="default"
              leftSection={<IconRefresh size={16} />}
              loading={sync.isPending}
              title={t('page.syncHint')}
              onClick={() =>
                sync.mutate([ws, slug], {
                  onSuccess: (r) => notifications.success(r.upToDate ? t('page.synced') : t('page.syncStarted', { count: r.started.length })),
                  onError: (e) => notifications.error(messageOf(e)),
                })
              }
            >
              {t('page.sync')}
            </Button>
          ) : undefined
        }
      />
      {project.unsupportedReason && <Alert color="gray">{project.unsupportedReason}</Alert>}
      <section aria-label={t('page.previews')}>
        <Title order={2} fz="lg">
          {t('page.previews')}
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {t('page.previewsHint')}
        </Text>
        {previews.error && <Alert color="red">{messageOf(previews.error)}</Alert>}
        {previews.data?.length === 0 && <Text c="dimmed">{t('page.noPreviews')}</Text>}
        <PreviewGrid previews={previews.data} classes={classNames} loading={previews.isLoading} />
      </section>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <section aria-label={t('page.classes')}>
          <Title order={2} fz="lg" mb="sm">
            {t('page.classes')}
          </Title>
          <Table striped withTableBorder data-testid="roboflow-classes">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('page.name')}</Table.Th>
                <Table.Th ta="right">{t('page.count')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {classes.map(([name, count]) => (
                <Table.Tr key={name}>
                  <Table.Td>
                    <Group gap={6} wrap="nowrap">
                      <span style={{ width: 10, height: 10, borderRadius: 2, background: colorFor(name, classNames), flex: 'none' }} />
                      {name}
                    </Group>
                  </Table.Td>
                  <Table.Td ta="right">{count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </section>
        <section aria-label={t('page.splits')}>
          <Title order={2} fz="lg" mb="sm">
            {t('page.splits')}
          </Title>
          <Stack gap="xs" data-testid="roboflow-splits">
            {(['train', 'valid', 'test'] as const).map((s) => (
              <Group key={s} gap="sm" wrap="nowrap">
                <Text w={48} size="sm">
                  {s}
                </Text>
                <div style={{ flex: 1, height: 10, background: 'var(--mantine-color-gray-2)', borderRadius: 5 }}>
                  <div
                    style={{ width: `${(project.splits[s] / total) * 100}%`, height: '100%', background: 'var(--mantine-color-violet-6)', borderRadius: 5 }}
                  />
                </div>
                <Text size="sm" w={40} ta="right">
                  {project.splits[s]}
                </Text>
              </Group>
            ))}
          </Stack>
        </section>
      </SimpleGrid>
      <section aria-label={t('page.versions')}>
        <Title order={2} fz="lg" mb="sm">
          {t('page.versions')}
        </Title>
        {versions.length === 0 && <Alert color="yellow">{t('page.noVersions')}</Alert>}
        <Stack gap="sm">
          {versions.map((v) => (
            <VersionRow key={v.id} ws={ws} slug={slug} version={v} importable={project.task !== null} />
          ))}
        </Stack>
      </section>
    </Stack>
  );
}
