import { useState } from 'react';
import { Badge, Button, Group, Menu, Paper, Stack, Text } from '@mantine/core';
import { IconChevronDown } from '@tabler/icons-react';
import type { Team, TeamMember, TeamMemberRole } from '@sightline/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { UserAvatar } from '../../../components/user-avatar';
import { formatDate } from '../../../lib/dates';
import { useRemoveFromTeam } from '../api/remove-from-team';
import { useUpdateMemberRole } from '../api/update-member-role';
import { useTeamsT } from '../i18n';

const ASSIGNABLE: TeamMemberRole[] = ['admin', 'member', 'labeler', 'viewer'];

/** Members with role and joined date; admins change roles and remove, the owner hands the team over. */
export function MembersList({ team, members, me }: { team: Team; members: TeamMember[]; me: string }) {
  const { t } = useTeamsT();
  const remove = useRemoveFromTeam();
  const setRole = useUpdateMemberRole();
  const [removing, setRemoving] = useState<TeamMember | null>(null);
  const [transferring, setTransferring] = useState<TeamMember | null>(null);
  const iAmOwner = team.owner.uid === me;
  return (
    <Stack gap="xs" data-testid="team-members">
      {members.map((m) => {
        const isOwner = m.role === 'owner';
        const canChange = team.abilities.canEdit && !isOwner && m.uid !== me && (iAmOwner || m.role !== 'admin');
        return (
          <Paper key={m.uid} withBorder p="sm" radius="md" data-testid="team-member" data-uid={m.uid}>
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Group gap="sm" wrap="nowrap" style={{ minWidth: 220, flex: 1 }}>
                <UserAvatar user={{ image: '', email: m.email, username: m.username, firstName: m.name }} size={36} />
                <Stack gap={0} style={{ minWidth: 0 }}>
                  <Text size="sm" fw={500} truncate>
                    {m.name || m.username}{' '}
                    <Text span c="dimmed" size="xs">
                      @{m.username}
                    </Text>
                  </Text>
                  <Text size="xs" c="dimmed" truncate>
                    {m.email} · {t('page.joined', { date: formatDate(m.joinedAt) })}
                  </Text>
                </Stack>
              </Group>
              <Group gap="xs">
                {canChange ? (
                  <Menu withinPortal position="bottom-end">
                    <Menu.Target>
                      <Button size="compact-sm" variant="light" rightSection={<IconChevronDown size={14} />} aria-label={t('page.role', { name: m.username })}>
                        {t(`roles.${m.role}`)}
                      </Button>
                    </Menu.Target>
                    <Menu.Dropdown>
                      {ASSIGNABLE.filter((r) => r !== m.role).map((r) => (
                        <Menu.Item key={r} onClick={() => setRole.mutate({ teamId: team.id, uid: m.uid, role: r })}>
                          {t(`roles.${r}`)}
                        </Menu.Item>
                      ))}
                      {iAmOwner && <Menu.Item onClick={() => setTransferring(m)}>{t('page.makeOwner')}</Menu.Item>}
                    </Menu.Dropdown>
                  </Menu>
                ) : (
                  <Badge variant={isOwner ? 'filled' : 'light'} color="violet" data-testid="member-role">
                    {t(`roles.${m.role}`)}
                  </Badge>
                )}
                {canChange && team.abilities.canRemove && (
                  <Button size="compact-sm" variant="subtle" color="red" onClick={() => setRemoving(m)} data-testid="member-remove">
                    {t('page.remove')}
                  </Button>
                )}
              </Group>
            </Group>
          </Paper>
        );
      })}
      <ConfirmDialog
        opened={removing !== null}
        onClose={() => setRemoving(null)}
        onConfirm={() => removing && remove.mutate({ teamId: team.id, member: removing.uid }, { onSuccess: () => setRemoving(null) })}
        title={t('page.removeTitle', { name: removing?.username ?? '' })}
        confirmLabel={t('page.remove')}
        loading={remove.isPending}
      >
        {t('page.leaveBody')}
      </ConfirmDialog>
      <ConfirmDialog
        opened={transferring !== null}
        onClose={() => setTransferring(null)}
        onConfirm={() => transferring && setRole.mutate({ teamId: team.id, uid: transferring.uid, role: 'owner' }, { onSuccess: () => setTransferring(null) })}
        title={t('page.transferTitle', { name: transferring?.username ?? '' })}
        confirmLabel={t('page.makeOwner')}
        loading={setRole.isPending}
        color="violet"
      >
        {t('page.transferBody')}
      </ConfirmDialog>
    </Stack>
  );
}
