import { Badge } from '@mantine/core';
import { IconLock, IconWorld, IconLink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

export type Privacy = 'private' | 'public' | 'unlisted';
const ICONS = { private: IconLock, public: IconWorld, unlisted: IconLink };
const COLORS = { private: '#495057', public: '#17632a', unlisted: '#8a5a00' };

export function PrivacyBadge({ privacy }: { privacy: Privacy }) {
  const { t } = useTranslation();
  const Icon = ICONS[privacy];
  return (
    <Badge variant="light" color={COLORS[privacy]} leftSection={<Icon size={12} aria-hidden />}>
      {t(`privacy.${privacy}`)}
    </Badge>
  );
}
