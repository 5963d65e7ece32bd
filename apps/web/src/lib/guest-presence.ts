import { useEffect } from 'react';
import { useMe } from './auth';
import { RealtimeClient, realtimeUrl, type RealtimeOptions } from './realtime';

/** The realtime address of a signed-out visitor's socket (spec §7 presence/guests). */
export const guestRealtimeUrl = (loc: Pick<Location, 'protocol' | 'host'> = window.location) => `${realtimeUrl(loc)}?guest=1`;

/**
 * Spec §7 "realtime presence under presence/guests": while nobody is signed in, the app keeps one
 * guest socket open (pinged like the signed-in one), which the server counts in the guests'
 * presence (GET /v1/presence/guests). Signing in closes it; the user's own socket takes over.
 */
export function useGuestPresence(options: Pick<RealtimeOptions, 'WebSocketImpl'> = {}) {
  const { user, isPending } = useMe();
  const signedOut = !isPending && !user;
  const { WebSocketImpl } = options;
  useEffect(() => {
    if (!signedOut) return;
    const client = new RealtimeClient({ url: guestRealtimeUrl(), WebSocketImpl });
    client.connect();
    return () => client.disconnect();
  }, [signedOut, WebSocketImpl]);
}
