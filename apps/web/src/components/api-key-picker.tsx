import { useState } from 'react';
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconEye, IconEyeOff, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../lib/api-client';
import { useApiKeyList, useCreateKeyForSnippet, useKeySecret, useKnownSecrets, type ApiKeySecret } from '../lib/api-keys';
import { keyPlaceholder } from '../lib/client-snippets';
import { TRAINING_NS } from '../lib/i18n-training';
import { errorMessage } from '../lib/i18n';

export interface ApiKeyChoice {
  keyId: string | null;
  setKeyId: (id: string | null) => void;
  /** The secret when it was created on this page, else null. */
  secret: ApiKeySecret | null;
  /** What snippets insert: the secret, or a placeholder naming the key's prefix. */
  key: string;
  legacyKey: string;
  revealed: boolean;
  setRevealed: (revealed: boolean) => void;
}

/**
 * Which key a snippet uses. Defaults to a key whose secret this page knows (created here), else the
 * newest key; the secret stays masked until the user reveals it.
 */
export function useApiKeyChoice(): ApiKeyChoice {
  const keys = useApiKeyList();
  const [picked, setKeyId] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const list = keys.data ?? [];
  const known = useKnownSecrets();
  const keyId = picked && list.some((k) => k.id === picked) ? picked : (list.find((k) => known[k.id])?.id ?? list[0]?.id ?? null);
  const secret = useKeySecret(keyId);
  const prefix = list.find((k) => k.id === keyId)?.prefix ?? null;
  return {
    keyId,
    setKeyId,
    secret,
    key: secret?.key ?? keyPlaceholder(prefix),
    legacyKey: secret?.legacyKey ?? keyPlaceholder(prefix, true),
    revealed,
    setRevealed,
  };
}

/** Pick one of the user's API keys, or create one (its secret fills the snippets on this page). */
export function ApiKeyPicker({ choice, newKeyName }: { choice: ApiKeyChoice; newKeyName: string }) {
  const { t } = useTranslation(TRAINING_NS);
  const keys = useApiKeyList();
  const create = useCreateKeyForSnippet();
  const list = keys.data ?? [];
  const selectedName = list.find((k) => k.id === choice.keyId)?.name;

  return (
    <Stack gap="xs" data-testid="api-key-picker">
      <Group align="flex-end" gap="xs" wrap="wrap">
        <Select
          label={t('keys.label')}
          placeholder={keys.isPending ? t('keys.loading') : t('keys.none')}
          data={list.map((k) => ({ value: k.id, label: `${k.name} · ${k.prefix}…` }))}
          value={choice.keyId}
          onChange={(id) => {
            choice.setKeyId(id);
            choice.setRevealed(false);
          }}
          allowDeselect={false}
          disabled={!list.length}
          style={{ flex: 1, minWidth: 220 }}
        />
        <Button
          variant="default"
          leftSection={<IconKey size={16} />}
          loading={create.isPending}
          onClick={() =>
            create.mutate(newKeyName, {
              onSuccess: (created) => {
                choice.setKeyId(created.id);
                choice.setRevealed(false);
              },
            })
          }
        >
          {t('keys.create')}
        </Button>
        {choice.secret && (
          <Button
            variant="subtle"
            leftSection={choice.revealed ? <IconEyeOff size={16} /> : <IconEye size={16} />}
            onClick={() => choice.setRevealed(!choice.revealed)}
            aria-pressed={choice.revealed}
          >
            {choice.revealed ? t('keys.hide') : t('keys.reveal')}
          </Button>
        )}
      </Group>
      {create.isError && (
        <Alert color="red" variant="light">
          {isApiError(create.error) ? errorMessage(create.error.code, create.error.message) : String(create.error)}
        </Alert>
      )}
      {choice.secret ? (
        <Text size="xs" c="dimmed">
          {t('keys.sessionOnly', { name: selectedName ?? '' })}
        </Text>
      ) : list.length ? (
        <Text size="xs" c="dimmed">
          {t('keys.secretUnknown')}
        </Text>
      ) : (
        !keys.isPending && (
          <Text size="xs" c="dimmed">
            {t('keys.noneYet')}
          </Text>
        )
      )}
    </Stack>
  );
}
