import { Box, Button, Checkbox, Loader, Modal, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconWebhook } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { WEBHOOK_EVENTS, type CreatedWebhook, type WebhookEventName } from '@sightline/contracts';
import { SectionCard } from '../../../components/section-card';
import { CodeSnippet } from '../../../components/code-snippet';
import { isApiError } from '../../../lib/api-client';
import { isAdmin, useMe } from '../../../lib/auth';
import { notifications } from '../../../lib/notifications';
import { useCreateWebhook } from '../api/create-webhook';
import { useWebhooks } from '../api/get-webhooks';
import { useWebhooksT } from '../i18n';
import { SigningHelp } from './signing-help';
import { WebhookCard } from './webhook-card';

const URL_RE = /^https?:\/\/\S+$/i;

function SecretModal({ created, onClose }: { created: CreatedWebhook | null; onClose: () => void }) {
  const { t } = useWebhooksT();
  return (
    <Modal opened={created !== null} onClose={onClose} title={t('secret.title')} centered closeOnClickOutside={false}>
      <Stack>
        <Text size="sm">{t('secret.body')}</Text>
        {created && <CodeSnippet code={created.secret} revealed label={t('secret.label')} testId="webhook-secret" />}
        <Button onClick={onClose}>{t('secret.done')}</Button>
      </Stack>
    </Modal>
  );
}

function WebhookForm({ onCreated }: { onCreated: (w: CreatedWebhook) => void }) {
  const { t } = useWebhooksT();
  const { user } = useMe();
  const create = useCreateWebhook();
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['training.completed', 'training.failed']);
  const [instance, setInstance] = useState(false);
  const [touched, setTouched] = useState(false);
  const urlError = touched && !URL_RE.test(url.trim()) ? t('form.invalidUrl') : undefined;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setTouched(true);
    if (!URL_RE.test(url.trim()) || events.length === 0) return;
    create.mutate(
      { url: url.trim(), events: events as WebhookEventName[], description: description.trim() || null, scope: instance ? 'instance' : 'own' },
      {
        onSuccess: (w) => {
          setUrl('');
          setDescription('');
          setTouched(false);
          notifications.success(t('hook.created'));
          onCreated(w);
        },
      },
    );
  };
  return (
    <Stack component="form" onSubmit={submit} gap="sm" aria-label={t('form.title')}>
      <Text fw={600}>{t('form.title')}</Text>
      <TextInput
        label={t('form.url')}
        placeholder={t('form.urlPlaceholder')}
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
        onBlur={() => setTouched(true)}
        error={urlError ?? (create.error ? (isApiError(create.error) ? create.error.message : String(create.error)) : undefined)}
        required
        type="url"
      />
      <TextInput
        label={t('form.description')}
        placeholder={t('form.descriptionPlaceholder')}
        value={description}
        onChange={(e) => setDescription(e.currentTarget.value)}
        maxLength={200}
      />
      <Checkbox.Group label={t('form.events')} value={events} onChange={setEvents} error={touched && events.length === 0 ? t('form.noEvents') : undefined}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} mt={6}>
          {WEBHOOK_EVENTS.map((e) => (
            <Checkbox key={e} value={e} label={t(`events.${e}`)} />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      {isAdmin(user) && <Checkbox label={t('form.instance')} checked={instance} onChange={(e) => setInstance(e.currentTarget.checked)} />}
      <div>
        <Button type="submit" loading={create.isPending} leftSection={<IconWebhook size={16} />}>
          {t('form.submit')}
        </Button>
      </div>
    </Stack>
  );
}

/** Settings: the user's outgoing webhooks, a form to add one, and how to check signatures. */
export function WebhooksSection() {
  const { t } = useWebhooksT();
  const hooks = useWebhooks();
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  return (
    <Box mt="lg">
      <SectionCard title={t('title')} description={t('intro')} testId="webhooks-section">
        {hooks.isPending ? (
          <Loader size="sm" />
        ) : hooks.data?.length ? (
          <Stack gap="sm">
            {hooks.data.map((h) => (
              <WebhookCard key={h.id} hook={h} />
            ))}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('empty')}
          </Text>
        )}
        <WebhookForm onCreated={setCreated} />
        <SigningHelp />
        <SecretModal created={created} onClose={() => setCreated(null)} />
      </SectionCard>
    </Box>
  );
}
