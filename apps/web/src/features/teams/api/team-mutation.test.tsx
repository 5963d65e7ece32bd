import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { teamKeys } from './keys';
import { useTeamMutation } from './team-mutation';

describe('useTeamMutation', () => {
  it('after leaving or deleting, the lists are read again but the gone team is not (no 404s from its open page)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const fetched: string[] = [];
    const query = (key: readonly string[]) => ({ queryKey: key, queryFn: async () => (fetched.push(key.join('/')), key.join('/')) });
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={client}>{children}</QueryClientProvider>;
    const { result } = renderHook(
      () => {
        useQuery(query(teamKeys.all));
        useQuery(query(teamKeys.detail('T1')));
        useQuery(query(teamKeys.members('T1')));
        useQuery(query(teamKeys.detail('T12')));
        return useTeamMutation(async (id: string) => id, { success: () => 'left', invalidate: () => [], forget: (id) => [teamKeys.detail(id)] });
      },
      { wrapper },
    );
    await waitFor(() => expect(fetched).toHaveLength(4));
    fetched.length = 0;
    await act(async () => {
      await result.current.mutateAsync('T1');
    });
    await waitFor(() => expect(fetched.sort()).toEqual(['teams', 'teams/T12']));
  });
});
