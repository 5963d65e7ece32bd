import { useState } from 'react';
import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import type { Team, TeamInvite } from '@sightline/contracts';
import { isApiError } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/dates';
import { notifications } from '../../../lib/notifications';
import { getInviteLink } from '../api/get-invite-link';
import { useRemoveFromTeam } from '../api/remove-from-team';
import { useTeamsT } from '../i18n';

/**
 * "Copy invite link": a server without SMTP mails nothing, so the inviter hands the link over
 * themselves. It is shown as well, since the clipboard is off on plain-http origins other than localhost.
 */
function CopyInviteLink({ team, invite }: { team: Team; invite: TeamInvite }) {
  const { t } = useTeamsT();
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const copy = async () => {
    setBusy(true);
    try {
      const { link: url } = await getInviteLink(team.id, invite.id);
      setLink(url);
      const copied = await navigator.clipboard?.writeText(url).then(
        () => true,
        () => false,
      );
      notifications.success(t(copied ? 'page.linkCopied' : 'page.linkShown'));
    } catch (error) {
      notifications.error(t('messages.failed', { reason: isApiError(error) ? error.message : String(error) }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconLink size={14} aria-hidden />}
        loading={busy}
        onClick={() => void copy()}
        data-testid="invite-copy-link"
      >
        {t('page.copyLink')}
      </Button>
      {link && (
        <TextInput
          readOnly
          value={link}
          aria-label={t('page.linkLabel', { email: invite.email })}
          w="100%"
          onFocus={(e) => e.currentTarget.select()}
          data-testid="invite-link"
        />
      )}
    </>
  );
}

/** Pending invites with their expiry; admins copy their link or cancel them (spec `remove` with `{invite}`). */
export function PendingInvites({ team, invites }: { team: Team; invites: TeamInvite[] }) {
  const { t } = useTeamsT();
  const remove = useRemoveFromTeam();
  if (invites.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('page.noInvites')}
      </Text>
    );
  return (
    <Stack gap="xs" data-testid="team-invites">
      {invites.map((i) => (
        <Paper key={i.id} withBorder p="sm" radius="md" data-testid="team-invite">
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Stack gap={0} style={{ minWidth: 0 }}>
              <Text size="sm" fw={500} truncate>
                {i.email}
              </Text>
              <Text size="xs" c="dimmed">
                {t(`roles.${i.role}`)} · {t('page.expires', { date: formatDateTime(i.expiresAt) })}
              </Text>
            </Stack>
            <Group gap={4} wrap="wrap">
              {team.abilities.canInvite && <CopyInviteLink team={team} invite={i} />}
              {team.abilities.canRemove && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  loading={remove.isPending && remove.variables && 'invite' in remove.variables && remove.variables.invite === i.id}
                  onClick={() => remove.mutate({ teamId: team.id, invite: i.id })}
                >
                  {t('page.cancelInvite')}
                </Button>
              )}
            </Group>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
