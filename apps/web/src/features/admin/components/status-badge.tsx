import { Badge } from '@mantine/core';
import { useAdminT } from '../i18n';

/** Active, disabled or deleted (within the grace period). */
export function StatusBadge({ deleted, disabled }: { deleted: string | null; disabled: string | null }) {
  const { t } = useAdminT();
  if (deleted)
    return (
      <Badge color="red" variant="light">
        {t('users.status.deleted')}
      </Badge>
    );
  if (disabled)
    return (
      <Badge color="orange" variant="light">
        {t('users.status.disabled')}
      </Badge>
    );
  return (
    <Badge color="green" variant="light">
      {t('users.status.active')}
    </Badge>
  );
}
