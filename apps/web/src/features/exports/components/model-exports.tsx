import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Code, Group, Modal, Paper, ScrollArea, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconDownload, IconFileText, IconRefresh } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { EXPORT_OUTPUTS, topics, type Model, type ModelExport } from '@sightline/contracts';
import { FileSize } from '../../../components/file-size';
import { formatDateTime } from '../../../lib/dates';
import { realtime } from '../../../lib/realtime';
import { exportKeys } from '../api/export-keys';
import { useExportLog } from '../api/get-export-log';
import { useExports } from '../api/get-exports';
import { useRetryExport } from '../api/retry-export';
import { useExportsT } from '../i18n';
import { ExportForm } from './export-form';

const COLORS: Record<ModelExport['status'], string> = { queued: 'gray', claimed: 'blue', running: 'blue', succeeded: 'teal', failed: 'red', cancelled: 'gray' };
const live = (e: ModelExport) => e.status === 'queued' || e.status === 'claimed' || e.status === 'running';

function optionsText(e: ModelExport) {
  return Object.entries(e.options)
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');
}

function LogModal({ item, onClose }: { item: ModelExport | null; onClose: () => void }) {
  const { t } = useExportsT();
  const log = useExportLog(item?.jobId ?? null, Boolean(item && live(item)));
  const text = log.data?.lines.join('') ?? '';
  return (
    <Modal opened={Boolean(item)} onClose={onClose} title={item ? t('logTitle', { format: item.format }) : ''} size="xl">
      <Stack gap="sm">
        {item?.error && (
          <Alert color="red" variant="light" style={{ whiteSpace: 'pre-wrap' }}>
            {item.error.split('\n')[0]}
          </Alert>
        )}
        <ScrollArea.Autosize mah="60vh">
          <Code block data-testid="export-log" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {text || t('logEmpty')}
          </Code>
        </ScrollArea.Autosize>
      </Stack>
    </Modal>
  );
}

/**
 * The model page's Exports section: request an export (format + ultralytics options), then each
 * export with its status, options, size, log, retry and download. Waits are explained: no agent
 * online, or the automatic ONNX export a trained model gets.
 */
export function ModelExports({ model }: { model: Model }) {
  const { t } = useExportsT();
  const queryClient = useQueryClient();
  const list = useExports(model.id);
  const retry = useRetryExport(model.id);
  const [logOf, setLogOf] = useState<string | null>(null);
  const canEdit = model.abilities.canEdit;
  const hasWeights = model.files.some((f) => f.kind === 'best');
  useEffect(
    () => realtime.subscribe(topics.model(model.id), () => void queryClient.invalidateQueries({ queryKey: exportKeys.list(model.id) })),
    [model.id, queryClient],
  );

  const items = list.data?.exports ?? [];
  const waiting = items.some(live);
  const autoOnnx = items.find((e) => e.auto && e.format === 'onnx' && live(e));
  const logItem = items.find((e) => e.id === logOf) ?? null;

  return (
    <Paper withBorder radius="md" p="lg" data-testid="model-exports">
      <Stack gap="md">
        <div>
          <Title order={3} fz="md">
            {t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('subtitle')}
          </Text>
        </div>
        {canEdit && (hasWeights ? <ExportForm modelId={model.id} /> : <Alert variant="light">{t('noWeights')}</Alert>)}
        {autoOnnx && (
          <Alert color="blue" variant="light" data-testid="auto-onnx-waiting">
            {t('autoOnnx')}
          </Alert>
        )}
        {/* Nothing can run it: no agent online and no built-in export worker (ADR 0022). */}
        {waiting && list.data && (list.data.worker ? !list.data.worker.available : list.data.agentsOnline === 0) && (
          <Alert color="yellow" variant="light" data-testid="no-agent">
            {t('noAgent')}
          </Alert>
        )}
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('none')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" data-testid="exports-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('columns.format')}</Table.Th>
                  <Table.Th>{t('columns.status')}</Table.Th>
                  <Table.Th>{t('columns.size')}</Table.Th>
                  <Table.Th>{t('columns.created')}</Table.Th>
                  <Table.Th>{t('columns.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((e) => (
                  <Table.Tr key={e.id} data-testid={`export-row-${e.format}`} data-status={e.status}>
                    <Table.Td>
                      <Group gap={6}>
                        <Text size="sm" fw={500}>
                          {EXPORT_OUTPUTS[e.format].label}
                        </Text>
                        {e.auto && (
                          <Badge size="xs" variant="light">
                            {t('auto')}
                          </Badge>
                        )}
                      </Group>
                      {optionsText(e) && (
                        <Text size="xs" c="dimmed" ff="monospace">
                          {optionsText(e)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Tooltip label={e.error?.split('\n')[0]} disabled={!e.error} multiline w={320}>
                        <Badge color={COLORS[e.status]} variant="light" data-testid="export-status">
                          {t(`status.${e.status}`)}
                        </Badge>
                      </Tooltip>
                      {e.attempts > 1 && (
                        <Text size="xs" c="dimmed">
                          {t('attempt', { n: e.attempts })}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td data-testid="export-size">{e.bytes !== null ? <FileSize bytes={e.bytes} /> : '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{formatDateTime(e.created)}</Text>
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        {e.jobId && canEdit && (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconFileText size={14} />}
                            onClick={() => setLogOf(e.id)}
                            data-testid="export-log-button"
                          >
                            {t('log')}
                          </Button>
                        )}
                        {e.canRetry && (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconRefresh size={14} />}
                            loading={retry.isPending && retry.variables === e.id}
                            onClick={() => retry.mutate(e.id)}
                          >
                            {t('retry')}
                          </Button>
                        )}
                        {e.downloadUrl && (
                          <Button size="compact-sm" variant="light" component="a" href={e.downloadUrl} download leftSection={<IconDownload size={14} />}>
                            {t('download')}
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
      <LogModal item={logItem} onClose={() => setLogOf(null)} />
    </Paper>
  );
}
