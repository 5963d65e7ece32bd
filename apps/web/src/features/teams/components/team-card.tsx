import { ActionIcon, Badge, Button, Card, Group, Menu, Stack, Text } from '@mantine/core';
import { IconDots, IconPencil, IconTrash } from '@tabler/icons-react';
import type { Team } from '@sightline/contracts';
import type { MouseEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { useAcceptInvite } from '../api/accept-invite';
import { useRejectInvite } from '../api/reject-invite';
import { useTeamsT } from '../i18n';
import { TeamAvatar } from './team-avatar';

/**
 * A team card (spec §2): image or acronym, name, description, member count, the owner's menu
 * (edit, delete) and Join on teams the caller is invited to. Clicking opens /teams/{id}.
 */
export function TeamCard({ team, onEdit, onDelete }: { team: Team; onEdit: (t: Team) => void; onDelete: (t: Team) => void }) {
  const { t } = useTeamsT();
  const accept = useAcceptInvite();
  const reject = useRejectInvite();
  const navigate = useNavigate();
  const showMenu = team.abilities.canEdit || team.abilities.canDelete;
  // The whole card opens the team; its buttons and menu (whose portal still bubbles in React) do not.
  const keep = (e: MouseEvent) => e.stopPropagation();
  return (
    <Card
      withBorder
      padding="md"
      radius="md"
      data-testid="team-card"
      data-team-id={team.id}
      onClick={() => navigate(`/teams/${team.id}`)}
      style={{ cursor: 'pointer' }}
    >
      <Group wrap="nowrap" align="flex-start" gap="md">
        <TeamAvatar team={team} />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" wrap="nowrap" justify="space-between">
            <Text
              component={Link}
              to={`/teams/${team.id}`}
              fw={600}
              truncate
              aria-label={t('open', { name: team.meta.name })}
              style={{ color: 'inherit', textDecoration: 'none' }}
              onClick={keep}
              data-testid="team-card-link"
            >
              {team.meta.name}
            </Text>
            {showMenu && (
              <div onClick={keep}>
                <Menu position="bottom-end" withinPortal>
                  <Menu.Target>
                    <ActionIcon variant="subtle" color="gray" aria-label={t('menu')} data-testid="team-menu">
                      <IconDots size={16} />
                    </ActionIcon>
                  </Menu.Target>
                  <Menu.Dropdown>
                    {team.abilities.canEdit && (
                      <Menu.Item leftSection={<IconPencil size={14} />} onClick={() => onEdit(team)}>
                        {t('edit')}
                      </Menu.Item>
                    )}
                    {team.abilities.canDelete && (
                      <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={() => onDelete(team)}>
                        {t('delete')}
                      </Menu.Item>
                    )}
                  </Menu.Dropdown>
                </Menu>
              </div>
            )}
          </Group>
          <Text size="sm" c="dimmed" lineClamp={2} mih={40}>
            {team.meta.description || t('noDescription')}
          </Text>
          <Group gap="xs" justify="space-between" mt={4}>
            <Group gap={6}>
              <Text size="xs" c="dimmed" data-testid="team-members-count">
                {t('members', { count: team.membersCount })}
              </Text>
              {team.invited && (
                <Badge size="xs" variant="light" color="violet">
                  {t('invitedBadge')}
                </Badge>
              )}
            </Group>
            {team.invited && (
              <Group gap={6} onClick={keep}>
                <Button size="compact-xs" variant="subtle" color="gray" loading={reject.isPending} onClick={() => reject.mutate({ id: team.id })}>
                  {t('reject')}
                </Button>
                <Button size="compact-xs" loading={accept.isPending} onClick={() => accept.mutate({ id: team.id })} data-testid="team-join">
                  {t('join')}
                </Button>
              </Group>
            )}
          </Group>
        </Stack>
      </Group>
    </Card>
  );
}
