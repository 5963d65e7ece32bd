import { Alert } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import type { TeamInvitePreview } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';

/** On sign-in and sign-up when an invite link brought the visitor: whose team, which address, what comes next. */
export function InviteNotice({ preview, gone, mode }: { preview: TeamInvitePreview | undefined; gone: boolean; mode: 'signIn' | 'signUp' }) {
  const { t } = useTranslation('auth');
  if (gone)
    return (
      <Alert color="yellow" variant="light" data-testid="invite-notice">
        {t('invite.gone')}
      </Alert>
    );
  if (!preview) return null;
  return (
    <Alert
      color="violet"
      variant="light"
      icon={<IconUsersGroup size={18} aria-hidden />}
      title={t('invite.title', { invitedBy: preview.invitedBy, team: preview.team.name })}
      data-testid="invite-notice"
    >
      {t(mode === 'signIn' ? 'invite.signIn' : 'invite.signUp', { email: preview.email })}
    </Alert>
  );
}
