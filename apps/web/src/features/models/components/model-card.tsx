import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import type { Model } from '@sightline/contracts';
import { Link } from 'react-router';
import { FileSize } from '../../../components/file-size';
import { ArchivedBadge } from '../../../components/archive-controls';
import { PrivacyBadge } from '../../../components/privacy-badge';
import { TeamBadge } from '../../../components/team-badge';
import { formatDateTime } from '../../../lib/dates';
import { LiveModelStatusBadge } from './model-status-badge';
import { useModelsT } from '../i18n';

export function ModelCard({ model }: { model: Model }) {
  const { t } = useModelsT();
  return (
    <Card withBorder radius="md" padding="md" data-testid="model-card">
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Anchor component={Link} to={`/models/${model.id}`} fw={600} lineClamp={2} title={model.meta.name} style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {model.meta.name}
          </Anchor>
          <LiveModelStatusBadge model={model} size="sm" />
        </Group>
        {model.project.id && (
          <Text size="sm" c="dimmed" lineClamp={1}>
            {t('inProject')}{' '}
            <Anchor component={Link} to={`/projects/${model.project.id}`} size="sm">
              {model.project.name ?? model.project.id}
            </Anchor>
          </Text>
        )}
        <Group gap="xs" justify="space-between">
          <Group gap="xs">
            <PrivacyBadge privacy={model.meta.privacy} />
            {model.dates.archived && <ArchivedBadge />}
            <TeamBadge teamId={model.team.id} />
            {model.task && (
              <Text size="xs" c="dimmed">
                {model.task}
              </Text>
            )}
          </Group>
          <Text size="xs" c="dimmed" data-testid="model-card-size">
            <FileSize bytes={model.totals.bytes} />
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('updatedAt', { date: formatDateTime(model.dates.updated) })}
        </Text>
      </Stack>
    </Card>
  );
}
