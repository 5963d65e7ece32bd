import type { Team } from '@sightline/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useDeleteTeam } from '../api/delete-team';
import { useTeamsT } from '../i18n';

export function DeleteTeamDialog({ team, onClose, onDeleted }: { team: Team | null; onClose: () => void; onDeleted?: () => void }) {
  const { t } = useTeamsT();
  const remove = useDeleteTeam(() => {
    onClose();
    onDeleted?.();
  });
  return (
    <ConfirmDialog
      opened={team !== null}
      onClose={onClose}
      onConfirm={() => team && remove.mutate(team)}
      title={t('deleteTitle', { name: team?.meta.name ?? '' })}
      confirmLabel={t('delete')}
      loading={remove.isPending}
    >
      {t('deleteBody')}
    </ConfirmDialog>
  );
}
