import { Badge, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconCreditCard, IconKey, IconPlugConnected, IconShieldCheck, IconUser, IconUsersGroup } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { useMe } from '../../../lib/auth';
import { ProfileTab } from '../components/profile-tab';
import { ApiKeysTab } from '../components/api-keys-tab';
import { SecurityTab } from '../components/security-tab';
import { TeamsTab } from '../../teams';
import { BillingTab } from '../../billing';
import { IntegrationsTab } from '../../integrations';
import { WebhooksSection } from '../../webhooks';
import { MyAgentsCard } from '../../agents';

export const SETTINGS_TABS = ['profile', 'api-keys', 'integrations', 'billing', 'teams', 'security'] as const;
export type SettingsTab = (typeof SETTINGS_TABS)[number];

/** Settings with tabs chosen by ?tab= (profile by default). */
export default function SettingsPage() {
  const { t } = useTranslation('settings');
  const { user } = useMe();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: SettingsTab = (SETTINGS_TABS as readonly string[]).includes(requested ?? '') ? (requested as SettingsTab) : 'profile';

  if (!user) return <PageLoader />;

  const select = (value: string | null) => {
    const next = new URLSearchParams(params);
    if (!value || value === 'profile') next.delete('tab');
    else next.set('tab', value);
    setParams(next, { replace: true });
  };

  return (
    <Stack gap={0} maw={960}>
      <PageHeader
        title={t('title')}
        description={
          <Group gap={6} component="span">
            <Text span size="sm" c="dimmed">
              {t('subtitle')}
            </Text>
            <Badge variant="light" color={user.plan === 'free' ? 'gray' : 'violet'}>
              {t(`plans.${user.plan}`)}
            </Badge>
          </Group>
        }
      />
      <Tabs value={tab} onChange={select} keepMounted={false}>
        <Tabs.List mb="lg">
          <Tabs.Tab value="profile" leftSection={<IconUser size={16} />}>
            {t('tabs.profile')}
          </Tabs.Tab>
          <Tabs.Tab value="api-keys" leftSection={<IconKey size={16} />}>
            {t('tabs.apiKeys')}
          </Tabs.Tab>
          <Tabs.Tab value="integrations" leftSection={<IconPlugConnected size={16} />}>
            {t('tabs.integrations')}
          </Tabs.Tab>
          <Tabs.Tab value="billing" leftSection={<IconCreditCard size={16} />}>
            {t('tabs.billing')}
          </Tabs.Tab>
          <Tabs.Tab value="teams" leftSection={<IconUsersGroup size={16} />}>
            {t('tabs.teams')}
          </Tabs.Tab>
          <Tabs.Tab value="security" leftSection={<IconShieldCheck size={16} />}>
            {t('security:tab', { defaultValue: 'Security' })}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="profile">
          <ProfileTab user={user} />
        </Tabs.Panel>
        <Tabs.Panel value="api-keys">
          <ApiKeysTab />
          <MyAgentsCard />
        </Tabs.Panel>
        <Tabs.Panel value="integrations">
          <IntegrationsTab />
          <WebhooksSection />
        </Tabs.Panel>
        <Tabs.Panel value="billing">
          <BillingTab />
        </Tabs.Panel>
        <Tabs.Panel value="security">
          <SecurityTab />
        </Tabs.Panel>
        <Tabs.Panel value="teams">
          <TeamsTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
