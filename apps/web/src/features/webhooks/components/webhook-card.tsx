import { ActionIcon, Badge, Button, Card, Group, Stack, Switch, Text, Tooltip } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconTrash, IconWorld } from '@tabler/icons-react';
import { useState } from 'react';
import type { Webhook } from '@sightline/contracts';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { useDeleteWebhook } from '../api/delete-webhook';
import { useDeliveries } from '../api/get-deliveries';
import { useUpdateWebhook } from '../api/update-webhook';
import { useWebhooksT } from '../i18n';
import { DeliveryStatus, PagedDeliveries } from './deliveries-table';

const messageOf = (err: unknown) => (isApiError(err) ? err.message : String(err));

function Deliveries({ id }: { id: string }) {
  return <PagedDeliveries query={useDeliveries(id)} />;
}

/** One endpoint: URL, events, last delivery; pause, delete, and its deliveries on demand. */
export function WebhookCard({ hook, showOwner = false }: { hook: Webhook; showOwner?: boolean }) {
  const { t } = useWebhooksT();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const [open, setOpen] = useState(false);
  const [confirm, setConfirm] = useState(false);
  return (
    <Card withBorder radius="md" data-testid="webhook-card">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" align="flex-start" gap="xs">
          <Stack gap={4} style={{ minWidth: 0, flex: '1 1 260px' }}>
            <Text fw={600} ff="monospace" size="sm" style={{ overflowWrap: 'anywhere' }}>
              {hook.url}
            </Text>
            {hook.description && (
              <Text size="sm" c="dimmed">
                {hook.description}
              </Text>
            )}
            <Group gap={6}>
              {hook.scope === 'instance' && (
                <Badge color="violet" variant="light" leftSection={<IconWorld size={12} />}>
                  {t('hook.instance')}
                </Badge>
              )}
              {showOwner && (
                <Text size="xs" c="dimmed">
                  {t('hook.owner')}: {hook.owner.username}
                </Text>
              )}
              {hook.events.map((e) => (
                <Badge key={e} variant="default" tt="none" fw={500}>
                  {t(`events.${e}`)}
                </Badge>
              ))}
            </Group>
          </Stack>
          <Group gap="xs" wrap="nowrap">
            <Switch
              aria-label={t('hook.active')}
              label={hook.active ? t('hook.active') : t('hook.paused')}
              checked={hook.active}
              disabled={update.isPending}
              onChange={(e) =>
                update.mutate({ id: hook.id, body: { active: e.currentTarget.checked } }, { onError: (err) => notifications.error(messageOf(err)) })
              }
            />
            <Tooltip label={t('hook.delete')} withArrow>
              <ActionIcon variant="subtle" color="red" aria-label={t('hook.delete')} onClick={() => setConfirm(true)}>
                <IconTrash size={16} />
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
        <Group justify="space-between">
          {hook.lastDelivery ? (
            <Group gap={6}>
              <DeliveryStatus status={hook.lastDelivery.status} />
              <Text size="xs" c="dimmed">
                {hook.lastDelivery.statusCode ?? '—'} · {new Date(hook.lastDelivery.at).toLocaleString()}
              </Text>
            </Group>
          ) : (
            <Text size="xs" c="dimmed">
              {t('hook.never')}
            </Text>
          )}
          <Button
            size="compact-sm"
            variant="subtle"
            rightSection={open ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? t('hook.hideDeliveries') : t('hook.deliveries')}
          </Button>
        </Group>
        {open && <Deliveries id={hook.id} />}
      </Stack>
      <ConfirmDialog
        opened={confirm}
        onClose={() => setConfirm(false)}
        title={t('hook.deleteTitle')}
        confirmLabel={t('hook.delete')}
        loading={remove.isPending}
        onConfirm={() =>
          remove.mutate(hook.id, {
            onSuccess: () => (setConfirm(false), notifications.success(t('hook.deleted'))),
            onError: (err) => notifications.error(messageOf(err)),
          })
        }
      >
        {t('hook.deleteConfirm', { url: hook.url })}
      </ConfirmDialog>
    </Card>
  );
}
