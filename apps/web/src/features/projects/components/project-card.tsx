import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import type { Project } from '@sightline/contracts';
import { Link } from 'react-router';
import { FileSize } from '../../../components/file-size';
import { ArchivedBadge } from '../../../components/archive-controls';
import { PrivacyBadge } from '../../../components/privacy-badge';
import { TeamBadge } from '../../../components/team-badge';
import { formatDateTime } from '../../../lib/dates';
import { ProjectCover } from './project-cover';
import { useProjectsT } from '../i18n';

export function ProjectCard({ project }: { project: Project }) {
  const { t } = useProjectsT();
  return (
    <Card withBorder radius="md" padding="md" data-testid="project-card">
      <Card.Section>
        <Link to={`/projects/${project.id}`} tabIndex={-1} aria-hidden>
          <ProjectCover project={project} height={120} />
        </Link>
      </Card.Section>
      <Stack gap={6} mt="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Anchor component={Link} to={`/projects/${project.id}`} fw={600} lineClamp={1} style={{ wordBreak: 'break-all' }}>
            {project.meta.name}
          </Anchor>
          <Group gap={4} wrap="nowrap">
            <TeamBadge teamId={project.team.id} />
            <PrivacyBadge privacy={project.meta.privacy} />
          </Group>
        </Group>
        <Text size="sm" c="dimmed" lineClamp={2} mih={40}>
          {project.meta.description || t('noDescription')}
        </Text>
        <Group justify="space-between" gap="xs">
          <Group gap="xs">
            <Text size="sm" data-testid="project-card-count">
              {t('modelCount', { count: project.totals.models })}
            </Text>
            {/* Its own row, not the title's: the name keeps its room at every width. */}
            {project.dates.archived && <ArchivedBadge />}
          </Group>
          <Text size="sm" c="dimmed" data-testid="project-card-size">
            <FileSize bytes={project.totals.bytes} />
          </Text>
        </Group>
        <Text size="xs" c="dimmed">
          {t('updatedAt', { date: formatDateTime(project.dates.updated) })}
        </Text>
      </Stack>
    </Card>
  );
}
