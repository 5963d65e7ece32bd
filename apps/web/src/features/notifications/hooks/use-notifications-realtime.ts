import { useQueryClient } from '@tanstack/react-query';
import { topics } from '@sightline/contracts';
import { useMe } from '../../../lib/auth';
import { notificationKeys } from '../../../lib/query-keys';
import { useTopic } from '../../../lib/use-topic';

/**
 * The caller's notifications topic (ADR 0028): each `notifications.changed` carries the unread
 * count the bell shows; an open Notifications page refetches its list. A record is made when a
 * job ends, so the Active jobs indicator refetches too.
 */
export function useNotificationsRealtime() {
  const { user } = useMe();
  const queryClient = useQueryClient();
  useTopic(user ? topics.userNotifications(user.id) : null, (message) => {
    if (message.event !== 'notifications.changed') return;
    if (message.data) queryClient.setQueryData(notificationKeys.count, { unread: message.data.unread });
    else void queryClient.invalidateQueries({ queryKey: notificationKeys.count });
    void queryClient.invalidateQueries({ queryKey: notificationKeys.list(false) });
    void queryClient.invalidateQueries({ queryKey: ['active-jobs'] });
    void queryClient.invalidateQueries({ queryKey: ['training-runs'] });
  });
}
