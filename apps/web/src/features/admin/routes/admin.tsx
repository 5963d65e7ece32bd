import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconShieldLock } from '@tabler/icons-react';
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

const FLAGS: FlagName[] = ['cloudTraining', 'teamsCollaboration', 'walletTopUp'];

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
    <Stack gap={0} maw={760}>
      <PageHeader title={t('admin.title')} description={t('admin.description')} />
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
      <Text size="xs" c="dimmed" mt="md">
        {t('admin.more')}
      </Text>
    </Stack>
  );
}
