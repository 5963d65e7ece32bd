import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';

/**
 * A team mutation: on success, a notification and the queries it changes are refetched; on
 * failure, the server's message (its error catalogue) in an error notification.
 */
export function useTeamMutation<I, O>(fn: (input: I) => Promise<O>, opts: { success: (input: I, out: O) => string; invalidate: (input: I) => QueryKey[]; onDone?: (input: I, out: O) => void }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (out, input) => {
      for (const queryKey of [teamKeys.all, ...opts.invalidate(input)]) void queryClient.invalidateQueries({ queryKey });
      notifications.success(opts.success(input, out));
      opts.onDone?.(input, out);
    },
    onError: (error) => notifications.error(tTeams('messages.failed', { reason: isApiError(error) ? error.message : String(error) })),
  });
}
