import { Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconPlayerStop, IconRefresh } from '@tabler/icons-react';
import { formatBytes, type RoboflowImport } from '@sightline/contracts';
import { Link } from 'react-router';
import { notifications } from '../../../lib/notifications';
import { useCancelImport } from '../api/cancel-import';
import { useRetryImport } from '../api/retry-import';
import { useIntegrationsT } from '../i18n';

const COLORS: Record<string, string> = {
  queued: 'gray',
  exporting: 'blue',
  downloading: 'blue',
  processing: 'violet',
  ready: 'green',
  failed: 'red',
  cancelled: 'gray',
};

/** Where an import is, as a badge, a progress bar, and the action that fits (cancel, retry, open). */
export function ImportStatus({ item }: { item: RoboflowImport }) {
  const { t } = useIntegrationsT();
  const cancel = useCancelImport();
  const retry = useRetryImport();
  const dataset = item.dataset;
  const phase = item.status === 'imported' ? (dataset?.status === 'Ready' ? 'ready' : dataset?.status === 'Failed' ? 'failed' : 'processing') : item.status;
  const p = item.progress;
  const running = phase === 'queued' || phase === 'exporting' || phase === 'downloading' || phase === 'processing';
  const value = p && p.total > 0 ? Math.min(100, (p.done / p.total) * 100) : null;
  return (
    <Stack gap={6} data-testid="roboflow-import" data-status={phase}>
      <Group gap="xs" wrap="wrap">
        <Badge color={COLORS[phase] ?? 'gray'} variant="light">
          {t(`import.${phase}`)}
        </Badge>
        {p?.phase === 'download' && p.done > 0 && (
          <Text size="xs" c="dimmed">
            {formatBytes(p.done)}
            {p.total > 0 ? ` / ${formatBytes(p.total)}` : ''}
          </Text>
        )}
        {running && item.status !== 'imported' && (
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            leftSection={<IconPlayerStop size={12} />}
            loading={cancel.isPending}
            onClick={() => cancel.mutate([item.id])}
          >
            {t('page.cancel')}
          </Button>
        )}
        {(item.status === 'failed' || item.status === 'cancelled') && (
          <Button
            size="compact-xs"
            variant="light"
            leftSection={<IconRefresh size={12} />}
            loading={retry.isPending}
            onClick={() => {
              notifications.retry(t('page.retrying'));
              retry.mutate([item.id]);
            }}
          >
            {t('page.retry')}
          </Button>
        )}
        {dataset && (
          <Button size="compact-xs" variant="light" component={Link} to={`/datasets/${dataset.id}`} rightSection={<IconExternalLink size={12} />}>
            {t('page.openDataset')}
          </Button>
        )}
      </Group>
      {running && (
        <Progress
          value={value ?? 100}
          striped={value === null}
          animated={value === null || phase === 'processing'}
          size="sm"
          aria-label={t(`import.${phase}`)}
        />
      )}
      {item.error && (
        <Text size="xs" c="red.8" data-testid="roboflow-import-error">
          {item.error.message}
        </Text>
      )}
    </Stack>
  );
}
