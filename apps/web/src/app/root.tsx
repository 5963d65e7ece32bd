import { useEffect } from 'react';
import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { NotificationArea } from '../components/notification-area';
import { PageLoader } from '../components/page-loader';
import { connectivity } from '../lib/connectivity';
import { useGuestPresence } from '../lib/guest-presence';
import { useLeavePrompt } from '../lib/uploads';
import { AccountDeletedAlert } from './account-deleted-alert';
import { IframeGuard } from './guards';

/** Root of every route: iframe guard, notifications, connectivity checks, the leave prompt, a guest's presence. */
export function Root() {
  useLeavePrompt();
  useGuestPresence();
  useEffect(() => {
    connectivity.start();
    return () => connectivity.stop();
  }, []);
  return (
    <>
      <IframeGuard>
        <Suspense fallback={<PageLoader />}>
          <Outlet />
        </Suspense>
      </IframeGuard>
      <NotificationArea />
      <AccountDeletedAlert />
      <ScrollRestoration />
    </>
  );
}
