import { ActionIcon, Alert, Button, Card, Group, Loader, PasswordInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { IconKey, IconPlugConnected, IconTrash, IconWorld } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { ErrorCode, type Integration } from '@sightline/contracts';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { useIntegrations } from '../api/get-integrations';
import { useRoboflowBrowse } from '../api/get-roboflow-browse';
import { useLinkWorkspace } from '../api/link-workspace';
import { useRemoveIntegration } from '../api/remove-integration';
import { useReplaceKey } from '../api/replace-key';
import { useSubscribe } from '../api/subscribe';
import { useUnsubscribe } from '../api/unsubscribe';
import { useUpdateSettings } from '../api/update-settings';
import { useIntegrationsT } from '../i18n';
import { ProjectCard } from './project-card';

const messageOf = (err: unknown) => (isApiError(err) ? err.message : String(err));
/** Only Roboflow's verdict on the key marks the key field; anything else (no network, Roboflow down) is said beside it. */
const KEY_CODES: readonly string[] = [ErrorCode.RoboflowInvalidKey, ErrorCode.RoboflowPublishableKey];
const keyError = (err: unknown) => (err && isApiError(err) && KEY_CODES.includes(err.code) ? err.message : undefined);
/** Whose fault: the server's network (roboflow/unreachable) or Roboflow's answer; shown apart from the fields. */
function RoboflowProblem({ error, fieldCodes = KEY_CODES }: { error: unknown; fieldCodes?: readonly string[] }) {
  const { t } = useIntegrationsT();
  if (!error || (isApiError(error) && fieldCodes.includes(error.code))) return null;
  const offline = isApiError(error) && error.code === ErrorCode.RoboflowUnreachable;
  return (
    <Alert
      color={offline ? 'orange' : 'red'}
      variant="light"
      role="alert"
      title={t(offline ? 'problem.offlineTitle' : 'problem.title')}
      data-testid="roboflow-problem"
      data-code={isApiError(error) ? error.code : undefined}
      mt="sm"
    >
      {messageOf(error)}
    </Alert>
  );
}

function LinkWorkspaceForm() {
  const { t } = useIntegrationsT();
  const link = useLinkWorkspace();
  const [key, setKey] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    link.mutate([key.trim()], {
      onSuccess: (row) => {
        setKey('');
        notifications.success(t('link.linked', { name: row.workspace.name }));
      },
    });
  };
  return (
    <Card withBorder radius="md" component="form" onSubmit={submit} aria-label={t('link.title')}>
      <Title order={3} fz="md" mb="xs">
        {t('link.title')}
      </Title>
      <Group align="flex-end" wrap="wrap" gap="sm">
        <PasswordInput
          style={{ flex: '1 1 260px' }}
          label={t('link.label')}
          placeholder={t('link.placeholder')}
          description={t('link.hint')}
          value={key}
          onChange={(e) => setKey(e.currentTarget.value)}
          autoComplete="off"
          leftSection={<IconKey size={16} />}
          error={keyError(link.error)}
        />
        <Button type="submit" loading={link.isPending} disabled={key.trim().length < 8}>
          {t('link.submit')}
        </Button>
      </Group>
      <RoboflowProblem error={link.error} />
    </Card>
  );
}

function ReplaceKeyForm({ integration, onDone }: { integration: Integration; onDone: () => void }) {
  const { t } = useIntegrationsT();
  const replace = useReplaceKey();
  const [key, setKey] = useState('');
  return (
    <Group
      component="form"
      align="flex-end"
      gap="xs"
      onSubmit={(e: FormEvent) => {
        e.preventDefault();
        replace.mutate([integration.id, key.trim()], { onSuccess: () => (notifications.success(t('workspace.keyReplaced')), onDone()) });
      }}
    >
      <PasswordInput
        style={{ flex: '1 1 220px' }}
        size="xs"
        label={t('workspace.newKey')}
        value={key}
        onChange={(e) => setKey(e.currentTarget.value)}
        error={keyError(replace.error)}
      />
      <Button size="xs" type="submit" loading={replace.isPending} disabled={key.trim().length < 8}>
        {t('workspace.save')}
      </Button>
      <RoboflowProblem error={replace.error} />
    </Group>
  );
}

function WorkspaceSection({ integration, browse }: { integration: Integration; browse: ReturnType<typeof useRoboflowBrowse> }) {
  const { t } = useIntegrationsT();
  const remove = useRemoveIntegration();
  const [replacing, setReplacing] = useState(false);
  const entry = browse.data?.workspaces.find((w) => w.integrationId === integration.id);
  return (
    <Stack gap="sm" data-testid="roboflow-workspace" data-workspace={integration.workspace.slug}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <div>
          <Title order={3} fz="lg">
            {integration.workspace.name}
          </Title>
          <Text size="xs" c="dimmed">
            {integration.workspace.slug}
            {entry ? ` · ${t('workspace.projects', { count: entry.projects.length })}` : ''}
          </Text>
        </div>
        <Group gap="xs">
          <Button size="xs" variant="default" leftSection={<IconKey size={14} />} onClick={() => setReplacing((v) => !v)}>
            {t('workspace.replaceKey')}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconTrash size={14} />}
            loading={remove.isPending}
            onClick={() =>
              window.confirm(t('workspace.removeConfirm', { name: integration.workspace.name })) &&
              remove.mutate([integration.id], { onSuccess: () => notifications.success(t('workspace.removed')) })
            }
          >
            {t('workspace.remove')}
          </Button>
        </Group>
      </Group>
      {replacing && <ReplaceKeyForm integration={integration} onDone={() => setReplacing(false)} />}
      {browse.isLoading && <Loader size="sm" />}
      {entry?.error && (
        <Alert color="red" variant="light">
          {entry.error.message}
        </Alert>
      )}
      {entry && !entry.error && entry.projects.length === 0 && (
        <Text size="sm" c="dimmed">
          {t('workspace.empty')}
        </Text>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        {entry?.projects.map((p) => (
          <ProjectCard key={p.id} project={p} />
        ))}
      </SimpleGrid>
      {entry && entry.more > 0 && (
        <Text size="xs" c="dimmed">
          {t('workspace.more', { count: entry.more })}
        </Text>
      )}
    </Stack>
  );
}

function SubscribeForm({ hasWorkspace }: { hasWorkspace: boolean }) {
  const { t } = useIntegrationsT();
  const sub = useSubscribe();
  const [project, setProject] = useState('');
  const [key, setKey] = useState('');
  return (
    <Card withBorder radius="md">
      <Title order={3} fz="md" mb="xs">
        {t('subscribe.title')}
      </Title>
      <Group
        component="form"
        align="flex-end"
        wrap="wrap"
        gap="sm"
        aria-label={t('subscribe.title')}
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          sub.mutate([project.trim(), key.trim() || undefined], {
            onSuccess: (row) => {
              setProject('');
              setKey('');
              notifications.success(t('subscribe.done', { ref: row.ref.id }));
            },
          });
        }}
      >
        <TextInput
          style={{ flex: '2 1 260px' }}
          label={t('subscribe.label')}
          placeholder={t('subscribe.placeholder')}
          value={project}
          onChange={(e) => setProject(e.currentTarget.value)}
          leftSection={<IconWorld size={16} />}
          error={sub.error && isApiError(sub.error) && SUBSCRIBE_FIELD_CODES.includes(sub.error.code) ? messageOf(sub.error) : undefined}
        />
        {!hasWorkspace && (
          <PasswordInput
            style={{ flex: '1 1 200px' }}
            label={t('subscribe.keyLabel')}
            value={key}
            onChange={(e) => setKey(e.currentTarget.value)}
            autoComplete="off"
          />
        )}
        <Button type="submit" variant="light" loading={sub.isPending} disabled={project.trim().length < 3}>
          {t('subscribe.submit')}
        </Button>
      </Group>
      <RoboflowProblem error={sub.error} fieldCodes={SUBSCRIBE_FIELD_CODES} />
    </Card>
  );
}

/** Answers about the project named in the field (not found, not importable, bad input) stay on the field. */
const SUBSCRIBE_FIELD_CODES: readonly string[] = [
  ErrorCode.RoboflowNotFound,
  ErrorCode.RoboflowUnsupportedType,
  ErrorCode.RoboflowNoVersions,
  ErrorCode.RoboflowNoImages,
  ErrorCode.Validation,
  ...KEY_CODES,
];

/** The Integrations tab of settings (`/settings?tab=integrations`). */
export function IntegrationsTab() {
  const { t } = useIntegrationsT();
  const overview = useIntegrations();
  const data = overview.data;
  const browse = useRoboflowBrowse(Boolean(data && (data.integrations.length || data.subscriptions.length)));
  const settings = useUpdateSettings();
  const unsubscribe = useUnsubscribe();
  if (!data) return <Loader />;
  return (
    <Stack gap="lg" data-testid="integrations-tab">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <IconPlugConnected size={28} aria-hidden style={{ flex: 'none' }} />
        <div>
          <Title order={2} fz="xl">
            {t('title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('intro')}
          </Text>
        </div>
      </Group>
      <Switch
        label={t('settings.uploadAllWeights')}
        description={t('settings.uploadAllWeightsHint')}
        checked={data.settings.uploadAllWeights}
        disabled={settings.isPending}
        onChange={(e) => settings.mutate([e.currentTarget.checked])}
      />
      <LinkWorkspaceForm />
      {data.integrations.map((i) => (
        <WorkspaceSection key={i.id} integration={i} browse={browse} />
      ))}
      <SubscribeForm hasWorkspace={data.integrations.length > 0} />
      {data.subscriptions.length > 0 && (
        <Stack gap="sm" data-testid="roboflow-subscriptions">
          <Title order={3} fz="lg">
            {t('subscribe.title2')}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {data.subscriptions.map((s) => {
              const entry = browse.data?.subscriptions.find((x) => x.subscriptionId === s.id);
              return (
                <Stack key={s.id} gap={4}>
                  {entry?.project ? (
                    <ProjectCard project={entry.project} />
                  ) : (
                    <Card withBorder padding="sm">
                      {entry?.error ? (
                        <Text size="sm" c="red.8">
                          {s.ref.id}: {entry.error.message}
                        </Text>
                      ) : (
                        <Text size="sm">{s.ref.id}</Text>
                      )}
                    </Card>
                  )}
                  <Group justify="flex-end">
                    <ActionIcon variant="subtle" color="red" aria-label={`${t('subscribe.remove')} ${s.ref.id}`} onClick={() => unsubscribe.mutate([s.id])}>
                      <IconTrash size={14} />
                    </ActionIcon>
                  </Group>
                </Stack>
              );
            })}
          </SimpleGrid>
        </Stack>
      )}
    </Stack>
  );
}
