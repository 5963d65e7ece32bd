import { useEffect, useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconFileText, IconPlayerStop } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { topics } from '@sightline/contracts';
import { realtime } from '../../../lib/realtime';
import { agentKeys } from '../api/agent-keys';
import { isRunActive, useCloudRun } from '../api/get-cloud-run';
import { useStopCloudRun } from '../api/stop-cloud-run';
import { usd, useAgentsT } from '../i18n';
import { notifyError } from '../../../lib/notify-error';
import { JobLogModal } from './job-log-modal';

const COLORS = { queued: 'gray', claimed: 'blue', running: 'blue', succeeded: 'teal', failed: 'red', cancelled: 'orange' } as const;

/**
 * A model's cloud run (owner only): where it is, epochs charged, cost so far against the hold,
 * Stop, and the agent's console. Renders nothing for a model that never ran in the cloud.
 */
export function CloudRunCard({ modelId, isOwner }: { modelId: string; isOwner: boolean }) {
  const { t } = useAgentsT();
  const queryClient = useQueryClient();
  const run = useCloudRun(modelId, isOwner);
  const stop = useStopCloudRun(modelId);
  const [logOpen, setLogOpen] = useState(false);
  useEffect(() => {
    if (!isOwner) return;
    return realtime.subscribe(topics.model(modelId), () => void queryClient.invalidateQueries({ queryKey: agentKeys.cloudRun(modelId) }));
  }, [isOwner, modelId, queryClient]);
  const r = run.data;
  if (!isOwner || !r) return null;
  const active = isRunActive(r);
  const epochs = r.epochs ?? 0;
  return (
    <Paper withBorder radius="md" p="lg" data-testid="cloud-run">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Group gap="sm">
            <Title order={3} fz="md">
              {t('run.title')}
            </Title>
            <Badge color={COLORS[r.job.status]} variant="light" data-testid="cloud-run-status">
              {t(`run.status.${r.job.status}`)}
            </Badge>
            {r.job.gpuType && (
              <Badge variant="outline" color="gray">
                {r.job.gpuType}
              </Badge>
            )}
          </Group>
          <Group gap="xs">
            <Button size="xs" variant="default" leftSection={<IconFileText size={14} />} onClick={() => setLogOpen(true)}>
              {t('run.log')}
            </Button>
            {active && (
              <Button
                size="xs"
                color="red"
                variant="light"
                leftSection={<IconPlayerStop size={14} />}
                loading={stop.isPending}
                disabled={r.job.cancelRequested}
                data-testid="cloud-stop"
                onClick={() => stop.mutate(undefined, { onError: notifyError })}
              >
                {r.job.cancelRequested ? t('run.stopping') : t('run.stop')}
              </Button>
            )}
          </Group>
        </Group>
        {r.job.status === 'queued' && (
          <Text size="sm" c="dimmed">
            {t('run.queued')}
          </Text>
        )}
        <Progress value={epochs ? (100 * r.epochsSettled) / epochs : 0} size="sm" animated={active} aria-label={t('run.epochs')} />
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <div>
            <Text size="xs" c="dimmed">
              {t('run.epochs')}
            </Text>
            <Text fw={600} data-testid="cloud-epochs">
              {r.epochsSettled} / {epochs}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('run.costSoFar')}
            </Text>
            <Text fw={600} data-testid="cloud-cost">
              {usd(r.settledMicro)}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {active ? t('run.held') : t('run.estimate')}
            </Text>
            <Text fw={600}>{usd(r.holdMicro)}</Text>
          </div>
        </SimpleGrid>
        {r.job.error && r.job.status !== 'succeeded' && (
          <Alert color={r.job.status === 'failed' ? 'red' : 'gray'} variant="light" style={{ whiteSpace: 'pre-wrap' }} data-testid="cloud-run-error">
            {r.job.error}
          </Alert>
        )}
      </Stack>
      <JobLogModal jobId={logOpen ? r.job.id : null} live={active} onClose={() => setLogOpen(false)} />
    </Paper>
  );
}
