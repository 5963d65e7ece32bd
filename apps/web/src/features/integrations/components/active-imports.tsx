import { Anchor, Card, Text } from '@mantine/core';
import type { RoboflowImport } from '@sightline/contracts';
import { Link } from 'react-router';
import { useRoboflowImports } from '../api/get-roboflow-imports';
import { useIntegrationsT } from '../i18n';
import { ImportStatus } from './import-status';

/** Imports still on Roboflow's side or downloading: once the archive is handed over, the dataset's own processing job shows instead. */
const beforeHandOver = (i: RoboflowImport) => i.status === 'queued' || i.status === 'exporting' || i.status === 'downloading';

/** The caller's Roboflow imports in flight (for /active-jobs), polled while any runs. */
export function useActiveImports(): RoboflowImport[] {
  return (useRoboflowImports().data ?? []).filter(beforeHandOver);
}

/** One import in flight: the Roboflow project and version, where it is, and Cancel. */
export function ActiveImportCard({ item }: { item: RoboflowImport }) {
  const { t } = useIntegrationsT();
  const [workspace, project] = item.project.split('/');
  return (
    <Card withBorder radius="md" data-testid="job-import" data-id={item.id}>
      <Anchor component={Link} to={`/integrations/roboflow/datasets/${encodeURIComponent(item.project)}`} fw={600}>
        {t('jobs.title', { project: project ?? item.project, version: item.version })}
      </Anchor>
      <Text size="xs" c="dimmed" mb="xs" truncate>
        {t('jobs.from', { workspace, time: new Date(item.dates.created).toLocaleTimeString() })}
      </Text>
      <ImportStatus item={item} />
    </Card>
  );
}
