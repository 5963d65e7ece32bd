import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiKey, createdApiKeySchema } from '@sightline/contracts';
import type { z } from 'zod';
import { api } from './api-client';
import { createStore, useStore } from './create-store';

export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
/** The two spellings of one secret: `ul_<40 hex>` (Platform clients) and `ul<40 hex>` (legacy HUB clients). */
export interface ApiKeySecret {
  key: string;
  legacyKey: string;
}

/*
 * The API key list for the pickers in training and inference snippets. Same query key as the
 * settings tab, so a key created in one place shows in the other.
 */
export const apiKeysQueryOptions = () => queryOptions({ queryKey: ['api-keys'] as const, queryFn: ({ signal }) => api.get<ApiKey[]>('/v1/api-keys', signal) });
export const useApiKeyList = (enabled = true) => useQuery({ ...apiKeysQueryOptions(), enabled });

/**
 * Secrets of keys created during this page session, by key id. The server shows a secret only in
 * the create response; keeping it in memory (never in storage) lets every snippet on the page use
 * it until the tab is closed.
 */
const secrets = createStore<Record<string, ApiKeySecret>>({});
export const rememberSecret = (id: string, secret: ApiKeySecret) => secrets.setState((s) => ({ ...s, [id]: secret }));
export const useKeySecret = (id: string | null | undefined) => useStore(secrets, (s) => (id ? (s[id] ?? null) : null));
export const useKnownSecrets = () => useStore(secrets);
export const forgetSecrets = () => secrets.setState({});

export function useCreateKeyForSnippet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => api.post<CreatedApiKey>('/v1/api-keys', { name }),
    onSuccess: (created) => {
      rememberSecret(created.id, { key: created.key, legacyKey: created.legacyKey });
      const { key: _key, legacyKey: _legacy, ...listed } = created;
      queryClient.setQueryData<ApiKey[]>(apiKeysQueryOptions().queryKey, (keys) => [listed, ...(keys ?? []).filter((k) => k.id !== created.id)]);
      void queryClient.invalidateQueries({ queryKey: apiKeysQueryOptions().queryKey });
    },
  });
}
