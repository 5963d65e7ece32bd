import { Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { SectionCard } from '../../../components/section-card';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { useAdminDeliveries } from '../api/get-admin-deliveries';
import { useAdminWebhooks } from '../api/get-admin-webhooks';
import { useWebhookSettings } from '../api/get-webhook-settings';
import { useUpdateWebhookSettings } from '../api/update-webhook-settings';
import { useWebhooksT } from '../i18n';
import { PagedDeliveries } from './deliveries-table';
import { WebhookCard } from './webhook-card';

/** Admin: the private-address setting, every webhook on the instance, and the latest deliveries. */
export function AdminWebhooksSection() {
  const { t } = useWebhooksT();
  const settings = useWebhookSettings();
  const update = useUpdateWebhookSettings();
  const hooks = useAdminWebhooks();
  const deliveries = useAdminDeliveries();
  return (
    <SectionCard title={t('admin.title')} description={t('admin.description')} mt="lg" testId="admin-webhooks">
      <Switch
        label={t('admin.allowPrivate')}
        description={t('admin.allowPrivateHint')}
        checked={settings.data?.allowPrivateUrls ?? false}
        disabled={settings.isPending || update.isPending}
        onChange={(e) =>
          update.mutate({ allowPrivateUrls: e.currentTarget.checked }, { onError: (err) => notifications.error(isApiError(err) ? err.message : String(err)) })
        }
      />
      <Title order={3} fz="md">
        {t('admin.hooks')}
      </Title>
      {hooks.isPending ? (
        <Loader size="sm" />
      ) : hooks.data?.length ? (
        <Stack gap="sm">
          {hooks.data.map((h) => (
            <WebhookCard key={h.id} hook={h} showOwner />
          ))}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          {t('admin.none')}
        </Text>
      )}
      <Title order={3} fz="md">
        {t('admin.recent')}
      </Title>
      <PagedDeliveries query={deliveries} />
    </SectionCard>
  );
}
