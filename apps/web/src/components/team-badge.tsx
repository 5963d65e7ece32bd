import { Badge } from '@mantine/core';
import { IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Marks an item that belongs to a team, in every list (nothing when it belongs to none). */
export function TeamBadge({ teamId, name }: { teamId: string | null | undefined; name?: string | null }) {
  const { t } = useTranslation();
  if (!teamId) return null;
  return (
    <Badge variant="light" color="violet" leftSection={<IconUsersGroup size={12} aria-hidden />} title={name ?? undefined} data-testid="team-badge">
      {t('teamBadge')}
    </Badge>
  );
}
