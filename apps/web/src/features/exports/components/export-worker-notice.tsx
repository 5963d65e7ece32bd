import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Model } from '@sightline/contracts';
import { StartAgentCommand } from '../../agents';
import { useExports } from '../api/get-exports';
import { useExportsT } from '../i18n';

/**
 * Said before anyone tries (ADR 0022): a model with weights but no ONNX file cannot be previewed,
 * and nothing can make that file — no agent online for the owner and no built-in export worker.
 * Offers the one command (with a fresh token) that starts an agent.
 */
export function ExportWorkerNotice({ model }: { model: Model }) {
  const { t } = useExportsT();
  const needsOnnx =
    model.abilities.canEdit && !model.dates.deleted && model.files.some((f) => f.kind === 'best') && !model.files.some((f) => f.kind === 'onnx');
  const list = useExports(needsOnnx ? model.id : '');
  const worker = list.data?.worker;
  if (!needsOnnx || !worker || worker.available) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} title={t('noWorker.title')} data-testid="no-export-worker">
      <Stack gap="xs">
        <Text size="sm">{t('noWorker.body')}</Text>
        {worker.reason && (
          <Text size="xs" c="dimmed">
            {t('noWorker.reason', { reason: worker.reason })}
          </Text>
        )}
        <StartAgentCommand />
      </Stack>
    </Alert>
  );
}
