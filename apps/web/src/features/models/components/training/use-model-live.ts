import { useQueryClient } from '@tanstack/react-query';
import { topics, type ServerEventMessage } from '@sightline/contracts';
import { useMe } from '../../../../lib/auth';
import { useStore } from '../../../../lib/create-store';
import { modelKeys } from '../../../../lib/query-keys';
import { realtime } from '../../../../lib/realtime';
import { useTopic } from '../../../../lib/use-topic';
import { trainingConsoleQueryOptions } from '../../api/training-console';
import { trainingMetricsQueryOptions } from '../../api/training-metrics';

/** Polling stands in while the socket is down; with it up, a slow poll covers events the server did not push. */
const POLL_SOCKET_OPEN_MS = 15_000;
const POLL_SOCKET_DOWN_MS = 5_000;

/** How often live training queries poll as a fallback for pushed events. */
export function useFallbackPoll(): number {
  return useStore(realtime.status) === 'open' ? POLL_SOCKET_OPEN_MS : POLL_SOCKET_DOWN_MS;
}

/**
 * Follows a model while its run is live: each `model:<id>` event refreshes what it is about (the
 * metrics, the console, the model), and `user:<uid>:models` catches the owner's status changes.
 */
export function useModelLive(modelId: string, live: boolean): void {
  const queryClient = useQueryClient();
  const { user } = useMe();
  const refreshModel = () => void queryClient.invalidateQueries({ queryKey: modelKeys.detail(modelId), exact: true });
  useTopic(live ? topics.model(modelId) : null, (m: ServerEventMessage) => {
    if (m.event === 'model.console') {
      void queryClient.invalidateQueries({ queryKey: trainingConsoleQueryOptions(modelId).queryKey });
      return;
    }
    if (m.event === 'model.metrics') void queryClient.invalidateQueries({ queryKey: trainingMetricsQueryOptions(modelId).queryKey });
    refreshModel();
  });
  useTopic(live && user ? topics.userModels(user.id) : null, (m: ServerEventMessage) => {
    if (m.event === 'model.updated' && m.data?.id === modelId) refreshModel();
  });
}
