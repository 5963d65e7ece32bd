import { useState } from 'react';
import { Alert, Anchor, Button, Group, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { IconUsersGroup, IconUsersPlus } from '@tabler/icons-react';
import { TEAM_PLACEHOLDER_CARDS, type Team } from '@sightline/contracts';
import { Link } from 'react-router';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { EmptyState } from '../../../components/empty-state';
import { useTeamCreation } from '../api/get-team-creation';
import { useTeams } from '../api/get-teams';
import { useTeamsT } from '../i18n';
import { DeleteTeamDialog } from './delete-team-dialog';
import { TeamCard } from './team-card';
import { TeamFormDialog } from './team-form-dialog';

/** The Teams tab of Settings (spec §2): team cards, ten placeholders while loading, add/edit/delete dialogs. */
export function TeamsTab() {
  const { t } = useTeamsT();
  const teams = useTeams();
  const creation = useTeamCreation();
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Team | null>(null);
  const [deleting, setDeleting] = useState<Team | null>(null);

  const reason = creation.data && !creation.data.allowed ? creation.data.reason : null;
  const createButton = (
    <Button leftSection={<IconUsersPlus size={16} />} disabled={!creation.data?.allowed} onClick={() => setCreating(true)} data-testid="team-create">
      {t('create')}
    </Button>
  );
  const items = teams.data ?? [];
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2} style={{ flex: 1, minWidth: 220 }}>
          <Text fw={600}>{t('tabTitle')}</Text>
          <Text size="sm" c="dimmed">
            {t('tabDescription')}
          </Text>
        </Stack>
        {reason ? (
          <Tooltip label={t(`createDisabled.${reason}`)}>
            <span>{createButton}</span>
          </Tooltip>
        ) : (
          createButton
        )}
      </Group>
      {reason && (
        <Alert variant="light" color="violet" data-testid="team-create-disabled">
          <Group gap="xs">
            <Text size="sm">{t(`createDisabled.${reason}`)}</Text>
            {reason === 'plan' && (
              <Anchor component={Link} to="/settings?tab=billing" size="sm">
                {t('createDisabled.upgrade')}
              </Anchor>
            )}
          </Group>
        </Alert>
      )}
      {teams.isPending ? (
        <CardPlaceholders count={TEAM_PLACEHOLDER_CARDS} />
      ) : items.length === 0 ? (
        <EmptyState icon={<IconUsersGroup size={28} />} title={t('emptyTitle')} description={t('emptyBody')} />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} data-testid="teams-list">
          {items.map((team) => (
            <TeamCard key={team.id} team={team} onEdit={setEditing} onDelete={setDeleting} />
          ))}
        </SimpleGrid>
      )}
      <TeamFormDialog opened={creating} onClose={() => setCreating(false)} />
      <TeamFormDialog opened={editing !== null} team={editing ?? undefined} onClose={() => setEditing(null)} />
      <DeleteTeamDialog team={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
