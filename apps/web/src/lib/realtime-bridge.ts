import type { QueryClient } from '@tanstack/react-query';
import { topics, type ServerEventMessage, type User } from '@sightline/contracts';
import { meQueryKey } from './auth';
import type { RealtimeClient } from './realtime';

/**
 * Feeds realtime events into TanStack Query caches:
 * - `user:<uid>` `user.updated` → the `['me']` query;
 * - `<entity>:<id>` `<entity>.updated` → `['<entity>s', id]` (merged) and the `['<entity>s']` list is marked stale;
 * - `<entity>.deleted` → the detail query is removed and the list marked stale.
 */
export function applyRealtimeEvent(queryClient: QueryClient, message: ServerEventMessage): void {
  const [entity, id] = message.topic.split(':');
  if (entity === 'user' && message.event === 'user.updated') {
    const user = message.data;
    if (user) queryClient.setQueryData<User | null>(meQueryKey, (prev) => ({ ...(prev ?? {}), ...user }));
    return;
  }
  if (!entity || !id) return;
  const collection = `${entity}s`;
  if (message.event.endsWith('.updated') && message.data && typeof message.data === 'object') {
    queryClient.setQueryData([collection, id], (prev: unknown) => (prev && typeof prev === 'object' ? { ...prev, ...(message.data as object) } : message.data));
    void queryClient.invalidateQueries({ queryKey: [collection], exact: true });
  } else if (message.event.endsWith('.deleted')) {
    queryClient.removeQueries({ queryKey: [collection, id] });
    void queryClient.invalidateQueries({ queryKey: [collection], exact: true });
  }
}

/** Connects, subscribes to the user's topic and routes every event to the caches; returns the teardown. */
export function bindRealtime(client: RealtimeClient, queryClient: QueryClient, uid: string): () => void {
  client.connect();
  const offEvents = client.onEvent((message) => applyRealtimeEvent(queryClient, message));
  const offUser = client.subscribe(topics.user(uid));
  return () => {
    offUser();
    offEvents();
    client.disconnect();
  };
}
