import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Subscription } from '@sightline/contracts';
import { api } from '../../../lib/api-client';
import { integrationKeys } from './keys';

export const subscribe = (project: string, apiKey?: string) =>
  api.post<Subscription>('/v1/integrations/roboflow/subscriptions', apiKey ? { project, apiKey } : { project });

/** Refreshes every integrations query (overview, browse, project pages, imports) on success. */
export function useSubscribe() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (args: Parameters<typeof subscribe>) => subscribe(...args),
    onSuccess: () => qc.invalidateQueries({ queryKey: integrationKeys.all }),
  });
}
