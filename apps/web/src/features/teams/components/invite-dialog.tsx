import { useState, type FormEvent } from 'react';
import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { createInviteBody, type InviteRole, type Team } from '@sightline/contracts';
import { useInviteMember } from '../api/invite-member';
import { useTeamsT } from '../i18n';

const ROLES: InviteRole[] = ['member', 'admin', 'labeler', 'viewer'];

/** Invite by email with a role (member by default); the server mails the link. */
export function InviteDialog({ team, opened, onClose }: { team: Team; opened: boolean; onClose: () => void }) {
  const { t } = useTeamsT();
  const invite = useInviteMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<InviteRole>('member');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createInviteBody.safeParse({ email, role });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Invalid email');
      return;
    }
    setError(null);
    invite.mutate(
      { team, email, role },
      {
        onSuccess: () => {
          setEmail('');
          onClose();
        },
      },
    );
  };
  return (
    <Modal opened={opened} onClose={onClose} title={t('inviteDialog.title', { name: team.meta.name })} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            type="email"
            label={t('inviteDialog.email')}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            error={error}
            required
            data-autofocus
            data-testid="invite-email"
          />
          <Select
            label={t('inviteDialog.role')}
            value={role}
            onChange={(v) => v && setRole(v as InviteRole)}
            data={ROLES.map((r) => ({ value: r, label: `${t(`roles.${r}`)} — ${t(`roleHints.${r}`)}` }))}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            data-testid="invite-role"
          />
          <Text size="xs" c="dimmed">
            {t('inviteDialog.note')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('form.cancel')}
            </Button>
            <Button type="submit" loading={invite.isPending} disabled={!email.trim()} data-testid="invite-send">
              {t('inviteDialog.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
