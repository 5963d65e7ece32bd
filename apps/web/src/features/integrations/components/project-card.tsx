import { Anchor, Avatar, Badge, Card, Group, Stack, Text, Tooltip } from '@mantine/core';
import type { RoboflowProject } from '@sightline/contracts';
import { Link } from 'react-router';
import { useIntegrationsT } from '../i18n';

export const roboflowPagePath = (id: string) => `/integrations/roboflow/datasets/${encodeURIComponent(id)}`;
export const STATUS_COLORS = { Ready: 'green', 'No Version': 'yellow', 'No Images': 'gray' } as const;

/** A Roboflow project in the Integrations tab; a type Sightline does not import is greyed with the reason. */
export function ProjectCard({ project }: { project: RoboflowProject }) {
  const { t } = useIntegrationsT();
  const skipped = project.unsupportedReason !== null;
  const classes = Object.keys(project.classes).length;
  const body = (
    <Card
      withBorder
      radius="md"
      padding="sm"
      data-testid="roboflow-project"
      data-project={project.id}
      data-skipped={skipped}
      style={skipped ? { opacity: 0.55 } : undefined}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <Avatar src={project.icon} radius="sm" size={44} color="violet" alt="">
          {project.name.slice(0, 2).toUpperCase()}
        </Avatar>
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Group gap={6} wrap="nowrap" justify="space-between">
            {skipped ? (
              <Text fw={600} truncate>
                {project.name}
              </Text>
            ) : (
              <Anchor component={Link} to={roboflowPagePath(project.id)} fw={600} truncate aria-label={t('project.open', { name: project.name })}>
                {project.name}
              </Anchor>
            )}
            <Badge size="sm" variant="light" color={skipped ? 'gray' : STATUS_COLORS[project.status]}>
              {skipped ? t('project.skipped') : t(`status.${project.status}`)}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" truncate>
            {t(`types.${project.type}`, { defaultValue: project.type })}
            {project.source === 'universe' ? ` · ${t('project.universe')}` : ''} · {project.id}
          </Text>
          <Text size="xs">
            {t('project.images', { count: project.images })} · {t('project.versions', { count: project.versions })} · {t('project.classes', { count: classes })}{' '}
            · {t('project.splits', project.splits)}
          </Text>
          {project.updated && (
            <Text size="xs" c="dimmed">
              {t('project.updated', { date: new Date(project.updated).toLocaleDateString() })}
            </Text>
          )}
          {skipped && (
            <Text size="xs" c="dimmed" fs="italic">
              {project.unsupportedReason}
            </Text>
          )}
        </Stack>
      </Group>
    </Card>
  );
  return skipped ? (
    <Tooltip label={project.unsupportedReason} multiline w={280}>
      {body}
    </Tooltip>
  ) : (
    body
  );
}
