import { useState } from 'react';
import { HeaderActions } from '../../../components/header-actions';
import { ItemTitle } from '../../../components/item-title';
import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconDoorExit, IconPencil, IconShare, IconTrash, IconUsersGroup, IconUserPlus } from '@tabler/icons-react';
import { topics } from '@sightline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { PageLoader } from '../../../components/page-loader';
import { isApiError } from '../../../lib/api-client';
import { useMe } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/dates';
import { useTopic } from '../../../lib/use-topic';
import { useAcceptInvite } from '../api/accept-invite';
import { useTeam } from '../api/get-team';
import { useTeamInvites } from '../api/get-team-invites';
import { useTeamMembers } from '../api/get-team-members';
import { teamKeys } from '../api/keys';
import { useLeaveTeam } from '../api/leave-team';
import { useRejectInvite } from '../api/reject-invite';
import { AddItemDialog } from '../components/add-item-dialog';
import { DeleteTeamDialog } from '../components/delete-team-dialog';
import { InviteDialog } from '../components/invite-dialog';
import { MembersList } from '../components/members-list';
import { PendingInvites } from '../components/pending-invites';
import { TeamAvatar } from '../components/team-avatar';
import { TeamFormDialog } from '../components/team-form-dialog';
import { TeamItemsSection } from '../components/team-items-section';
import { useTeamsT } from '../i18n';

type Dialog = 'invite' | 'edit' | 'delete' | 'leave' | 'share' | null;

/** /teams/{id}: header, members, pending invites, the team's items, and the team's actions. */
export default function TeamContentPage() {
  const { t } = useTeamsT();
  const { id = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const token = params.get('invite');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useMe();
  const team = useTeam(id);
  const isMember = Boolean(team.data?.role);
  const members = useTeamMembers(id, isMember);
  const invites = useTeamInvites(id, isMember);
  const accept = useAcceptInvite();
  const reject = useRejectInvite(() => navigate('/settings?tab=teams'));
  const [dialog, setDialog] = useState<Dialog>(null);
  const leave = useLeaveTeam(() => navigate('/settings?tab=teams'));
  useTopic(isMember ? topics.team(id) : null, () => void queryClient.invalidateQueries({ queryKey: teamKeys.detail(id) }));

  const back = (
    <Button component={Link} to="/settings?tab=teams" variant="light">
      {t('page.back')}
    </Button>
  );
  if (team.isPending) return <PageLoader />;
  if (team.isError || !team.data) {
    const missing = isApiError(team.error) && team.error.status === 404;
    return (
      <EmptyState
        icon={<IconUsersGroup size={28} />}
        title={missing ? t('page.notFoundTitle') : t('messages.failed', { reason: isApiError(team.error) ? team.error.message : '' })}
        description={missing ? t('page.notFoundBody') : undefined}
        action={back}
      />
    );
  }
  const data = team.data;
  const close = () => setDialog(null);
  const a = data.abilities;
  return (
    <Stack gap="lg" maw={1100}>
      <Anchor component={Link} to="/settings?tab=teams" size="sm">
        ← {t('page.back')}
      </Anchor>
      {data.invited && data.invite && (
        <Alert color="violet" variant="light" title={t('page.inviteTitle', { name: data.meta.name })} data-testid="team-invite-banner">
          <Stack gap="sm">
            <Text size="sm">
              {t('page.inviteBody', { owner: data.owner.username, role: t(`roles.${data.invite.role}`), date: formatDateTime(data.invite.expiresAt) })}
            </Text>
            <Group gap="xs">
              <Button
                loading={accept.isPending}
                onClick={() =>
                  accept.mutate(
                    { id, token },
                    {
                      onSuccess: () => {
                        const next = new URLSearchParams(params);
                        next.delete('invite');
                        setParams(next, { replace: true });
                      },
                    },
                  )
                }
                data-testid="invite-accept"
              >
                {t('join')}
              </Button>
              <Button variant="default" loading={reject.isPending} onClick={() => reject.mutate({ id, token })}>
                {t('reject')}
              </Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <Paper withBorder radius="md" p="lg">
        <Group justify="space-between" align="flex-start" wrap="wrap" gap="md">
          <Group gap="md" wrap="nowrap" style={{ minWidth: 0, flex: '1 1 260px' }}>
            <TeamAvatar team={data} size={64} />
            <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
              <ItemTitle name={data.meta.name} data-testid="team-title" />
              <Text size="sm" c="dimmed">
                {data.meta.description || t('noDescription')}
              </Text>
              <Text size="xs" c="dimmed">
                {t('page.owner', { name: data.owner.username })} · <span data-testid="team-page-count">{t('members', { count: data.membersCount })}</span>
                {data.role && ` · ${t(`roles.${data.role}`)}`}
              </Text>
            </Stack>
          </Group>
          <HeaderActions
            actions={[
              ...(a.canInvite
                ? [
                    {
                      key: 'invite',
                      label: t('page.invite'),
                      icon: <IconUserPlus size={16} />,
                      variant: 'filled' as const,
                      onClick: () => setDialog('invite'),
                      testId: 'team-invite-open',
                    },
                  ]
                : []),
              ...(a.canAddItems
                ? [
                    {
                      key: 'share',
                      label: t('page.addItem'),
                      icon: <IconShare size={16} />,
                      variant: 'light' as const,
                      onClick: () => setDialog('share'),
                      testId: 'team-share-open',
                    },
                  ]
                : []),
              ...(a.canEdit ? [{ key: 'edit', label: t('edit'), icon: <IconPencil size={16} />, onClick: () => setDialog('edit') }] : []),
              ...(a.canLeave
                ? [
                    {
                      key: 'leave',
                      label: t('page.leave'),
                      icon: <IconDoorExit size={16} />,
                      color: 'red',
                      onClick: () => setDialog('leave'),
                      testId: 'team-leave',
                    },
                  ]
                : []),
              ...(a.canDelete
                ? [
                    {
                      key: 'delete',
                      label: t('delete'),
                      icon: <IconTrash size={16} />,
                      variant: 'light' as const,
                      color: 'red',
                      onClick: () => setDialog('delete'),
                    },
                  ]
                : []),
            ]}
          />
        </Group>
      </Paper>
      {isMember && (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
          <Stack gap="xs">
            <Title order={3}>{t('page.members')}</Title>
            {members.data && user && <MembersList team={data} members={members.data} me={user.id} />}
          </Stack>
          <Stack gap="xs">
            <Title order={3}>{t('page.invites')}</Title>
            {invites.data && <PendingInvites team={data} invites={invites.data} />}
          </Stack>
        </SimpleGrid>
      )}
      {isMember && <TeamItemsSection team={data} />}
      <InviteDialog team={data} opened={dialog === 'invite'} onClose={close} />
      <AddItemDialog team={data} opened={dialog === 'share'} onClose={close} />
      <TeamFormDialog opened={dialog === 'edit'} team={data} onClose={close} />
      <DeleteTeamDialog team={dialog === 'delete' ? data : null} onClose={close} onDeleted={() => navigate('/settings?tab=teams')} />
      <ConfirmDialog
        opened={dialog === 'leave'}
        onClose={close}
        onConfirm={() => leave.mutate(data)}
        title={t('page.leaveTitle', { name: data.meta.name })}
        confirmLabel={t('page.leave')}
        loading={leave.isPending}
      >
        {t('page.leaveBody')}
      </ConfirmDialog>
    </Stack>
  );
}
