import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { tTeams } from '../i18n';
import { teamKeys } from './keys';

/**
 * A team mutation: on success, a notification and the queries it changes are refetched; on
 * failure, the server's message (its error catalogue) in an error notification.
 */
export function useTeamMutation<I, O>(
  fn: (input: I) => Promise<O>,
  opts: {
    success: (input: I, out: O) => string;
    invalidate: (input: I) => QueryKey[];
    /** Queries of something the caller can no longer read (a team left or deleted): dropped, never refetched into 404s. */
    forget?: (input: I) => QueryKey[];
    onDone?: (input: I, out: O) => void;
  },
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: (out, input) => {
      // A team one just left or deleted answers 404 now: its open page must not ask again before it closes.
      const forgotten = (opts.forget?.(input) ?? []).map((k) => JSON.stringify(k).slice(0, -1));
      const keep = (q: { queryKey: QueryKey }) => !forgotten.some((prefix) => JSON.stringify(q.queryKey).startsWith(prefix));
      for (const queryKey of [teamKeys.all, ...opts.invalidate(input)]) void queryClient.invalidateQueries({ queryKey, predicate: keep });
      notifications.success(opts.success(input, out));
      opts.onDone?.(input, out);
    },
    onError: (error) => notifications.error(tTeams('messages.failed', { reason: isApiError(error) ? error.message : String(error) })),
  });
}
