import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconDownload, IconPlayerPlay } from '@tabler/icons-react';
import type { Model } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CodeSnippet } from '../../../../components/code-snippet';
import { FileSize } from '../../../../components/file-size';
import { legacyTrainSnippet } from '../../../../lib/client-snippets';
import { TRAINING_NS } from '../../../../lib/i18n-training';

const absolute = (url: string) => new URL(url, window.location.origin).toString();

/** The newest resumable checkpoint: `last`, or any per-epoch file. */
export function resumeCheckpoint(model: Pick<Model, 'files'>) {
  return model.files.find((f) => f.kind === 'last') ?? model.files.find((f) => f.epoch !== null && f.kind !== 'best') ?? null;
}

/** Where a run that died or was stopped can go on from its last checkpoint. */
export function ResumeCard({ model }: { model: Model }) {
  const { t } = useTranslation(TRAINING_NS);
  const checkpoint = resumeCheckpoint(model);
  if (!checkpoint) return null;
  const legacy = model.training?.protocol === 'hub';
  const url = checkpoint.url ? absolute(checkpoint.url) : null;
  const code = legacy
    ? legacyTrainSnippet({ origin: window.location.origin, legacyKey: '<your 42-character API key>', modelId: model.id }).split('\n').at(-1)!
    : [...(url ? [`curl -L -o last.pt '${url}'`] : []), 'yolo train resume model=last.pt'].join('\n');
  return (
    <Paper withBorder radius="md" p="md" data-testid="resume-card">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Group gap="xs">
            <IconPlayerPlay size={18} />
            <Title order={3} fz="md">
              {t('resume.title')}
            </Title>
          </Group>
          {url && (
            <Button component="a" href={url} download variant="light" size="xs" leftSection={<IconDownload size={14} />}>
              {t('resume.download', { name: checkpoint.name })}
            </Button>
          )}
        </Group>
        <Text size="sm">
          {checkpoint.epoch !== null ? t('resume.bodyEpoch', { epoch: checkpoint.epoch + 1 }) : t('resume.body')} <FileSize bytes={checkpoint.bytes} />
        </Text>
        <Text size="sm" c="dimmed">
          {legacy ? t('resume.legacyHelp') : t('resume.platformHelp')}
        </Text>
        <CodeSnippet code={code} label={t('resume.snippet')} testId="resume-snippet" />
      </Stack>
    </Paper>
  );
}

const metricLabel = (key: string) => key.replace(/^metrics\//, '');

/** Final metrics of the best weights, and the weights themselves. */
export function FinalResults({ model }: { model: Model }) {
  const { t } = useTranslation(TRAINING_NS);
  const best = model.files.find((f) => f.kind === 'best');
  const metrics = Object.entries(model.metrics.best ?? {}).sort(([a], [b]) => a.localeCompare(b));
  const bestEpoch = model.training?.bestEpoch;
  return (
    <Paper withBorder radius="md" p="md" data-testid="final-results">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={3} fz="md">
            {t('final.title')}
          </Title>
          {best?.url ? (
            <Button component="a" href={absolute(best.url)} download leftSection={<IconDownload size={16} />} data-testid="download-best">
              {t('final.download')} (<FileSize bytes={best.bytes} />)
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              {t('final.noWeights')}
            </Text>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {[
            model.training?.outcome === 'cancelled' ? t('final.cancelled') : null,
            bestEpoch !== null && bestEpoch !== undefined ? t('final.bestEpoch', { epoch: bestEpoch + 1 }) : null,
            t('final.epochs', { count: model.metrics.epochs }),
          ]
            .filter(Boolean)
            .join(' · ')}
        </Text>
        {metrics.length > 0 && (
          <SimpleGrid cols={{ base: 2, sm: 4 }} spacing="xs">
            {metrics.map(([key, value]) => (
              <Paper key={key} withBorder radius="sm" p="xs" data-testid="final-metric">
                <Text size="xs" c="dimmed">
                  {metricLabel(key)}
                </Text>
                <Text fw={700} size="lg">
                  {value.toFixed(3)}
                </Text>
              </Paper>
            ))}
          </SimpleGrid>
        )}
        {model.names.length > 0 && (
          <Table withRowBorders={false} verticalSpacing={2}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Td w={120}>
                  <Text size="sm" c="dimmed">
                    {t('final.classes')}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Text size="sm">{model.names.join(', ')}</Text>
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        )}
        {model.project.id && (
          <Anchor size="sm" component={Link} to={`/projects/${model.project.id}`}>
            {t('final.compare')}
          </Anchor>
        )}
      </Stack>
    </Paper>
  );
}
