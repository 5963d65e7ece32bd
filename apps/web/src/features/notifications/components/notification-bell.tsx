import { ActionIcon, Indicator, Tooltip } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useNotificationCount } from '../api/get-notification-count';
import { useNotificationsRealtime } from '../hooks/use-notifications-realtime';

/** The header bell (desktop and phone): the unread count, a link to /notifications (ADR 0028). */
export function NotificationBell({ color = 'gray' }: { color?: string }) {
  const { t } = useTranslation();
  useNotificationsRealtime();
  const unread = useNotificationCount().data?.unread ?? 0;
  const label = unread ? t('bell.unread', { count: unread }) : t('nav.notifications');
  return (
    <Tooltip label={label}>
      <Indicator label={unread > 99 ? '99+' : unread} disabled={!unread} size={18} color="red" offset={4} data-testid="notification-count" data-count={unread}>
        <ActionIcon component={Link} to="/notifications" variant="subtle" color={color} size="lg" aria-label={label} data-testid="notification-bell">
          <IconBell size={20} aria-hidden />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}
