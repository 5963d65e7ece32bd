import type { ReactNode } from 'react';
import { Button, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { Team, TeamItemKind } from '@sightline/contracts';
import { DatasetCard } from '../../datasets';
import { ModelCard } from '../../models';
import { ProjectCard } from '../../projects';
import { useMe } from '../../../lib/auth';
import { useTeamItems } from '../api/get-team-items';
import { useRemoveTeamItem } from '../api/team-items';
import { useTeamsT } from '../i18n';

/** One item card with "take out of team" for its owner or a team admin. */
function Shared({ team, kind, id, ownerUid, children }: { team: Team; kind: TeamItemKind; id: string; ownerUid: string; children: ReactNode }) {
  const { t } = useTeamsT();
  const { user } = useMe();
  const remove = useRemoveTeamItem();
  const may = user?.id === ownerUid || team.abilities.canRemove;
  return (
    <Stack gap={4}>
      {children}
      {may && (
        <Button
          size="compact-xs"
          variant="subtle"
          color="gray"
          loading={remove.isPending}
          onClick={() => remove.mutate({ teamId: team.id, kind, id })}
          style={{ alignSelf: 'flex-end' }}
        >
          {t('page.removeItem')}
        </Button>
      )}
    </Stack>
  );
}

function Section({ title, count, children, testId }: { title: string; count: number; children: ReactNode; testId: string }) {
  const { t } = useTeamsT();
  return (
    <Stack gap="xs" data-testid={testId}>
      <Title order={4}>
        {title}{' '}
        <Text span c="dimmed" size="sm">
          ({count})
        </Text>
      </Title>
      {count === 0 ? (
        <Text size="sm" c="dimmed">
          {t('page.noItems')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>{children}</SimpleGrid>
      )}
    </Stack>
  );
}

/** The team's datasets, projects and models, with the same cards as their own pages. */
export function TeamItemsSection({ team }: { team: Team }) {
  const { t } = useTeamsT();
  const items = useTeamItems(team.id, team.role !== null);
  if (!items.data) return null;
  const { datasets, projects, models } = items.data;
  return (
    <Stack gap="lg">
      <Section title={t('page.projects')} count={projects.length} testId="team-projects">
        {projects.map((p) => (
          <Shared key={p.id} team={team} kind="project" id={p.id} ownerUid={p.owner.uid}>
            <ProjectCard project={p} />
          </Shared>
        ))}
      </Section>
      <Section title={t('page.models')} count={models.length} testId="team-models">
        {models.map((m) => (
          <Shared key={m.id} team={team} kind="model" id={m.id} ownerUid={m.owner.uid}>
            <ModelCard model={m} />
          </Shared>
        ))}
      </Section>
      <Section title={t('page.datasets')} count={datasets.length} testId="team-datasets">
        {datasets.map((d) => (
          <Shared key={d.id} team={team} kind="dataset" id={d.id} ownerUid={d.owner.uid}>
            <DatasetCard dataset={d} />
          </Shared>
        ))}
      </Section>
    </Stack>
  );
}
