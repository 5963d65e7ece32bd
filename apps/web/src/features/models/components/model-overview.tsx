import type { ReactNode } from 'react';
import { Anchor, Badge, Card, Code, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { Model } from '@sightline/contracts';
import { Link } from 'react-router';
import { FileSize } from '../../../components/file-size';
import { formatDateTime } from '../../../lib/dates';
import { ModelFiles } from './model-files';
import { useModelsT } from '../i18n';

function Section({ title, children, testId }: { title: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="lg" component="section" aria-label={title} data-testid={testId}>
      <Title order={2} fz="md" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

function Rows({ rows }: { rows: Array<[string, ReactNode]> }) {
  return (
    <Table variant="vertical" withRowBorders={false} verticalSpacing={6} layout="fixed">
      <Table.Tbody>
        {rows.map(([label, value]) => (
          <Table.Tr key={label}>
            <Table.Th w="42%" bg="transparent" fw={500} c="dimmed" fz="sm">
              {label}
            </Table.Th>
            <Table.Td fz="sm" style={{ wordBreak: 'break-word' }}>
              {value}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

const cacheLabel = (cache: Model['config']['cache']) => (cache === null ? 'none' : cache === true ? 'true' : cache === false ? 'false' : cache);

export function ModelConfigSection({ config }: { config: Model['config'] }) {
  const { t } = useModelsT();
  const advanced = Object.entries(config.advanced ?? {});
  const dash = t('none');
  return (
    <Section title={t('config.title')} testId="model-config">
      <Rows
        rows={[
          [t('config.batchSize'), config.batchSize === -1 ? t('config.auto', { value: -1 }) : config.batchSize],
          [t('config.epochs'), config.epochs],
          [t('config.imageSize'), config.imageSize],
          [t('config.patience'), config.patience],
          [t('config.cache'), t(`config.cacheChoice.${cacheLabel(config.cache)}`)],
          [t('config.device'), config.device ?? t('config.deviceAuto')],
          [t('config.time'), config.time === null ? dash : t('config.hours', { count: config.time })],
        ]}
      />
      {advanced.length > 0 && (
        <Stack gap={4} mt="sm">
          <Text size="sm" fw={500} c="dimmed">
            {t('config.advanced')}
          </Text>
          <Group gap={6}>
            {advanced.map(([k, v]) => (
              <Code key={k}>
                {k}={typeof v === 'string' ? v : JSON.stringify(v)}
              </Code>
            ))}
          </Group>
        </Stack>
      )}
    </Section>
  );
}

function ParentLink({ parent }: { parent: Model['lineage']['parent'] }) {
  const { t } = useModelsT();
  const label = parent.name ?? parent.id;
  if (parent.id) {
    return (
      <Anchor component={Link} to={`/models/${parent.id}`} data-testid="lineage-parent">
        {label}
      </Anchor>
    );
  }
  if (parent.url && /^https?:\/\//.test(parent.url)) {
    return (
      <Anchor href={parent.url} target="_blank" rel="noopener noreferrer" data-testid="lineage-parent">
        {label ?? parent.url}
      </Anchor>
    );
  }
  return <span data-testid="lineage-parent">{label ?? t('none')}</span>;
}

export function ModelOverview({ model }: { model: Model }) {
  const { t } = useModelsT();
  const dash = t('none');
  const arch = model.lineage.architecture;
  const archLabel = arch.name && arch.id && arch.name !== arch.id ? `${arch.name} (${arch.id})` : (arch.name ?? arch.id ?? dash);
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Section title={t('details')} testId="model-details">
          <Rows
            rows={[
              [
                t('project'),
                model.project.id ? (
                  <Anchor component={Link} to={`/projects/${model.project.id}`}>
                    {model.project.name ?? model.project.id}
                  </Anchor>
                ) : (
                  dash
                ),
              ],
              [t('owner'), model.owner.username || dash],
              [t('task'), model.task ?? dash],
              [
                t('classes'),
                model.names.length ? (
                  <Group gap={4}>
                    {model.names.slice(0, 24).map((n) => (
                      <Badge key={n} variant="light" color="gray" tt="none" size="sm">
                        {n}
                      </Badge>
                    ))}
                    {model.names.length > 24 && <Text size="xs">+{model.names.length - 24}</Text>}
                  </Group>
                ) : (
                  dash
                ),
              ],
              // Uploaded weights: the image size their file says (known once the ONNX export read it).
              ...(model.origin === 'uploaded' ? ([[t('config.imageSize'), model.imageSize ?? dash]] as Array<[string, ReactNode]>) : []),
              [t('size'), <FileSize key="size" bytes={model.totals.bytes} />],
              [t('created'), formatDateTime(model.dates.created)],
              [t('updated'), formatDateTime(model.dates.updated)],
              ...(model.dates.train.end ? ([[t('trainedAt'), formatDateTime(model.dates.train.end)]] as Array<[string, ReactNode]>) : []),
            ]}
          />
        </Section>
        {/* Weights trained elsewhere have no training configuration here (ADR 0022). */}
        {model.origin !== 'uploaded' && <ModelConfigSection config={model.config} />}
        <Section title={t('lineage.title')} testId="model-lineage">
          <Rows
            rows={[
              [t('lineage.architecture'), archLabel],
              [t('lineage.parent'), <ParentLink key="parent" parent={model.lineage.parent} />],
            ]}
          />
        </Section>
        <Section title={t('dataset.title')} testId="model-dataset">
          <Rows
            rows={[
              [
                t('dataset.name'),
                model.dataset.id ? (
                  <Anchor component={Link} to={`/datasets/${model.dataset.id}`} data-testid="dataset-link">
                    {model.dataset.name ?? model.dataset.id}
                  </Anchor>
                ) : (
                  (model.dataset.name ?? dash)
                ),
              ],
              // The version it learned from (ADR 0038): its card on the dataset's Versions tab lists the models trained on it.
              [
                t('dataset.version'),
                model.dataset.id && model.dataset.version ? (
                  <Anchor
                    component={Link}
                    to={`/datasets/${model.dataset.id}?tab=versions&version=${model.dataset.version}`}
                    data-testid="dataset-version-link"
                  >
                    {t('dataset.versionNumber', { number: model.dataset.version })}
                  </Anchor>
                ) : (
                  dash
                ),
              ],
            ]}
          />
        </Section>
      </SimpleGrid>
      <Section title={t('files.title')}>
        <ModelFiles model={model} />
      </Section>
    </Stack>
  );
}
