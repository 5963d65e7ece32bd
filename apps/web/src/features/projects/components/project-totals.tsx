import type { ReactNode } from 'react';
import { Badge, Card, Group, SimpleGrid, Text } from '@mantine/core';
import type { Project } from '@sightline/contracts';
import { FileSize } from '../../../components/file-size';
import { useProjectsT } from '../i18n';

function Stat({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="md">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="xl" fw={650} mt={4} data-testid={testId}>
        {children}
      </Text>
    </Card>
  );
}

/** Models count, bytes and per-export sizes of a project. */
export function ProjectTotals({ project }: { project: Project }) {
  const { t } = useProjectsT();
  const exports = Object.entries(project.models.exports).sort(([a], [b]) => a.localeCompare(b));
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} data-testid="project-totals">
      <Stat label={t('totals.models')} testId="project-total-models">
        {project.totals.models}
      </Stat>
      <Stat label={t('totals.size')} testId="project-total-size">
        <FileSize bytes={project.totals.bytes} />
      </Stat>
      <Card withBorder radius="md" padding="md">
        <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
          {t('totals.exports')}
        </Text>
        {exports.length ? (
          <Group gap={6} mt={8} data-testid="project-exports">
            {exports.map(([kind, bytes]) => (
              <Badge key={kind} variant="light" color="gray" tt="none">
                {kind} · <FileSize bytes={bytes} />
              </Badge>
            ))}
          </Group>
        ) : (
          <Text size="sm" c="dimmed" mt={8}>
            {t('totals.noExports')}
          </Text>
        )}
      </Card>
    </SimpleGrid>
  );
}
