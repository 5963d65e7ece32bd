import { Alert, Paper, Stack, Switch, Title } from '@mantine/core';
import { IconMailOff, IconShieldLock } from '@tabler/icons-react';
import type { FlagName } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { isAdmin, useMe } from '../../../lib/auth';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';
import { notifications } from '../../../lib/notifications';
import { useRemoteConfig } from '../../../lib/remote-config';
import { useUpdateFlags } from '../api/update-flags';
import { OutboxList } from '../components/outbox-list';
import { UsersTable } from '../components/users-table';
import { AdminBillingSection } from '../../billing';
import { AdminAgentsSection } from '../../agents';
import { AdminWebhooksSection } from '../../webhooks';

const FLAGS: FlagName[] = ['cloudTraining', 'teamsCollaboration', 'walletTopUp', 'dedicatedInference'];

/** The route is only auth-guarded (spec §2); the server refuses non-admins, and the page says so. */
export default function AdminPage() {
  const { t } = useTranslation('pages');
  const { user } = useMe();
  const { config } = useRemoteConfig();
  const update = useUpdateFlags();

  if (!isAdmin(user)) {
    return <EmptyState icon={<IconShieldLock size={28} />} title={t('admin.notAdminTitle')} description={t('admin.notAdminBody')} />;
  }
  return (
    <Stack gap={0} maw={960}>
      <PageHeader title={t('admin.title')} description={t('admin.description')} />
      {!config.mail.enabled && (
        <Alert color="yellow" icon={<IconMailOff size={18} />} title={t('admin.mailOffTitle')} mb="lg" role="status">
          {t('admin.mailOffBody')}
        </Alert>
      )}
      <Paper withBorder p="lg" radius="md">
        <Title order={2} fz="lg" mb="md">
          {t('admin.flags')}
        </Title>
        <Stack gap="md">
          {FLAGS.map((flag) => (
            <Switch
              key={flag}
              label={t(`admin.flag.${flag}.label`)}
              description={t(`admin.flag.${flag}.description`)}
              checked={config.flags[flag]}
              disabled={update.isPending}
              onChange={(e) =>
                update.mutate(
                  { [flag]: e.currentTarget.checked },
                  { onError: (err) => notifications.error(isApiError(err) ? errorMessage(err.code, err.message) : String(err)) },
                )
              }
            />
          ))}
        </Stack>
      </Paper>
      <UsersTable />
      <AdminBillingSection />
      <AdminAgentsSection />
      <AdminWebhooksSection />
      <OutboxList />
    </Stack>
  );
}
