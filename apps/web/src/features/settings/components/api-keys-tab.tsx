import { useState, type FormEvent } from 'react';
import { ActionIcon, Alert, Button, Code, CopyButton, Group, Modal, Stack, Table, Text, TextInput, Tooltip, VisuallyHidden } from '@mantine/core';
import { IconCheck, IconCopy, IconKey, IconTrash } from '@tabler/icons-react';
import type { ApiKey } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageLoader } from '../../../components/page-loader';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';
import { notifications } from '../../../lib/notifications';
import { rememberSecret } from '../../../lib/api-keys';
import { useApiKeys } from '../api/get-api-keys';
import { useCreateApiKey, type CreatedApiKey } from '../api/create-api-key';
import { useDeleteApiKey } from '../api/delete-api-key';
import { SectionCard } from '../../../components/section-card';
import { ApiKeySnippets } from './api-key-snippets';
import { InferenceUsageCard } from './inference-usage-card';

const formatDate = (iso: string | null, never: string) => (iso ? new Date(iso).toLocaleString() : never);

function SecretField({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation('settings');
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <Group wrap="nowrap" gap="xs">
        <Code block style={{ flex: 1, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }} data-testid="api-key-secret">
          {value}
        </Code>
        <CopyButton value={value} timeout={2000}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('apiKeys.copied') : t('apiKeys.copy')} withArrow>
              <ActionIcon color={copied ? 'teal' : 'gray'} variant="light" size="lg" onClick={copy} aria-label={`${t('apiKeys.copy')}: ${label}`}>
                {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </Stack>
  );
}

function CreatedKeyModal({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const { t } = useTranslation('settings');
  return (
    <Modal opened={!!created} onClose={onClose} title={t('apiKeys.createdTitle')} size="lg" centered>
      {created && (
        <Stack>
          <Alert color="yellow" variant="light">
            {t('apiKeys.onlyOnce')}
          </Alert>
          <SecretField label={t('apiKeys.key')} value={created.key} />
          <SecretField label={t('apiKeys.legacyKey')} value={created.legacyKey} />
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('apiKeys.done')}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

function KeyRow({ apiKey }: { apiKey: ApiKey }) {
  const { t } = useTranslation('settings');
  const remove = useDeleteApiKey();
  const [confirm, setConfirm] = useState(false);
  return (
    <Table.Tr data-testid="api-key-row">
      <Table.Td>
        <Text fw={500} size="sm">
          {apiKey.name}
        </Text>
        <Text size="xs" c="dimmed" ff="monospace">
          {apiKey.prefix}…
        </Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDate(apiKey.dates.created, t('apiKeys.never'))}</Text>
      </Table.Td>
      <Table.Td>
        <Text size="sm">{formatDate(apiKey.dates.lastUsed, t('apiKeys.never'))}</Text>
      </Table.Td>
      <Table.Td ta="right">
        {confirm ? (
          <Group gap={6} justify="flex-end" wrap="nowrap">
            <Button size="compact-sm" variant="default" onClick={() => setConfirm(false)}>
              {t('cancel')}
            </Button>
            <Button
              size="compact-sm"
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(apiKey.id, {
                  onSuccess: () => notifications.success(t('apiKeys.revoked', { name: apiKey.name })),
                  onError: (e) => notifications.error(isApiError(e) ? errorMessage(e.code, e.message) : String(e)),
                })
              }
            >
              {t('apiKeys.revoke')}
            </Button>
          </Group>
        ) : (
          <Tooltip label={t('apiKeys.revoke')} withArrow>
            <ActionIcon variant="subtle" color="red" onClick={() => setConfirm(true)} aria-label={`${t('apiKeys.revoke')} ${apiKey.name}`}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

export function ApiKeysTab() {
  const { t } = useTranslation('settings');
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedApiKey | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(name.trim() || t('apiKeys.defaultName'), {
      onSuccess: (key) => {
        rememberSecret(key.id, { key: key.key, legacyKey: key.legacyKey });
        setCreated(key);
        setName('');
      },
      onError: (e) => notifications.error(isApiError(e) ? errorMessage(e.code, e.message) : String(e)),
    });
  };

  return (
    <Stack gap="lg">
      <SectionCard title={t('apiKeys.createTitle')} description={t('apiKeys.createDescription')}>
        <form onSubmit={onSubmit} aria-label={t('apiKeys.createTitle')}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              style={{ flex: 1, minWidth: 220 }}
              label={t('apiKeys.name')}
              placeholder={t('apiKeys.defaultName')}
              maxLength={64}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
            />
            <Button type="submit" leftSection={<IconKey size={16} />} loading={create.isPending}>
              {t('apiKeys.create')}
            </Button>
          </Group>
        </form>
      </SectionCard>
      <SectionCard title={t('apiKeys.listTitle')}>
        {keys.isPending ? (
          <PageLoader fullHeight={false} />
        ) : keys.isError ? (
          <Alert color="red">{isApiError(keys.error) ? errorMessage(keys.error.code, keys.error.message) : String(keys.error)}</Alert>
        ) : keys.data.length === 0 ? (
          <EmptyState icon={<IconKey size={28} />} title={t('apiKeys.emptyTitle')} description={t('apiKeys.emptyBody')} />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('apiKeys.name')}</Table.Th>
                  <Table.Th>{t('apiKeys.created')}</Table.Th>
                  <Table.Th>{t('apiKeys.lastUsed')}</Table.Th>
                  <Table.Th ta="right">
                    <VisuallyHidden>{t('apiKeys.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {keys.data.map((k) => (
                  <KeyRow key={k.id} apiKey={k} />
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </SectionCard>
      <ApiKeySnippets />
      <InferenceUsageCard />
      <CreatedKeyModal created={created} onClose={() => setCreated(null)} />
    </Stack>
  );
}
