import { Button, Group } from '@mantine/core';
import { useAcceptInvite } from '../api/accept-invite';
import { useRejectInvite } from '../api/reject-invite';
import { useTeamsT } from '../i18n';

/** Join or decline a pending invite to a team (shown with its notification on /notifications). */
export function InviteActions({ teamId }: { teamId: string }) {
  const { t } = useTeamsT();
  const accept = useAcceptInvite();
  const reject = useRejectInvite();
  return (
    <Group gap="xs" wrap="nowrap">
      <Button size="compact-sm" variant="default" loading={reject.isPending} disabled={accept.isPending} onClick={() => reject.mutate({ id: teamId })}>
        {t('reject')}
      </Button>
      <Button
        size="compact-sm"
        loading={accept.isPending}
        disabled={reject.isPending}
        onClick={() => accept.mutate({ id: teamId })}
        data-testid="my-invite-join"
      >
        {t('join')}
      </Button>
    </Group>
  );
}
