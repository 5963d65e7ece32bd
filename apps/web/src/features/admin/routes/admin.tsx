import { Alert, Badge, Paper, Stack, Switch, Tabs, Title } from '@mantine/core';
import {
  IconChartLine,
  IconClipboardList,
  IconHistory,
  IconLayoutDashboard,
  IconMailOff,
  IconRocket,
  IconShieldLock,
  IconStar,
  IconUsers,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import type { FlagName } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { PageHeader } from '../../../components/page-header';
import { isAdmin, useMe } from '../../../lib/auth';
import { useRemoteConfig } from '../../../lib/remote-config';
import { useUpdateFlags } from '../api/update-flags';
import { OutboxList } from '../components/outbox-list';
import { UsersTable } from '../components/users-table';
import { AnalyticsSection } from '../components/analytics-section';
import { AuditSection } from '../components/audit-section';
import { FeedbackSection } from '../components/feedback-section';
import { JobsSection } from '../components/jobs-section';
import { UsersSection } from '../components/users-section';
import { useAdminT } from '../i18n';
import { AdminBillingSection, AdminUpgradeRequests, useOpenUpgradeRequests } from '../../billing';
import { SupportContactCard } from '../components/support-contact-card';
import { AdminAgentsSection } from '../../agents';
import { notifyError } from '../../../lib/notify-error';
import { AdminWebhooksSection } from '../../webhooks';

const FLAGS: FlagName[] = ['cloudTraining', 'teamsCollaboration', 'walletTopUp', 'dedicatedInference'];
const TABS = ['overview', 'users', 'analytics', 'jobs', 'requests', 'feedback', 'audit'] as const;
type AdminTab = (typeof TABS)[number];
const ICONS = {
  overview: IconLayoutDashboard,
  users: IconUsers,
  analytics: IconChartLine,
  jobs: IconClipboardList,
  requests: IconRocket,
  feedback: IconStar,
  audit: IconHistory,
} as const;

/** The route is only auth-guarded (spec §2); the server refuses non-admins, and the page says so. */
export default function AdminPage() {
  const { t } = useTranslation('pages');
  const { user } = useMe();
  const { config } = useRemoteConfig();
  const update = useUpdateFlags();
  const { t: ta } = useAdminT();
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: AdminTab = (TABS as readonly string[]).includes(requested ?? '') ? (requested as AdminTab) : 'overview';
  const [auditTarget, setAuditTarget] = useState(params.get('target') ?? '');
  const openRequests = useOpenUpgradeRequests(isAdmin(user));
  const select = (value: string | null, extra: Record<string, string> = {}) => {
    const next = new URLSearchParams();
    if (value && value !== 'overview') next.set('tab', value);
    for (const [k, v] of Object.entries(extra)) next.set(k, v);
    setParams(next, { replace: true });
  };

  if (!isAdmin(user)) {
    return <EmptyState icon={<IconShieldLock size={28} />} title={t('admin.notAdminTitle')} description={t('admin.notAdminBody')} />;
  }
  return (
    <Stack gap={0} maw={tab === 'overview' ? 960 : 1200}>
      <PageHeader title={t('admin.title')} description={t('admin.description')} />
      <Tabs value={tab} onChange={(v) => select(v)} keepMounted={false}>
        <Tabs.List mb="lg">
          {TABS.map((k) => {
            const Icon = ICONS[k];
            return (
              <Tabs.Tab
                key={k}
                value={k}
                leftSection={<Icon size={16} />}
                rightSection={
                  k === 'requests' && openRequests > 0 ? (
                    <Badge size="sm" circle data-testid="requests-count">
                      {openRequests}
                    </Badge>
                  ) : undefined
                }
              >
                {ta(`tabs.${k}`)}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        <Tabs.Panel value="overview">
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
                  onChange={(e) => update.mutate({ [flag]: e.currentTarget.checked }, { onError: notifyError })}
                />
              ))}
            </Stack>
          </Paper>
          <SupportContactCard />
          <UsersTable />
          <AdminBillingSection />
          <AdminAgentsSection />
          <AdminWebhooksSection />
          <OutboxList />
        </Tabs.Panel>
        <Tabs.Panel value="users">
          <UsersSection
            onShowAudit={(uid) => {
              setAuditTarget(uid);
              select('audit', { target: uid });
            }}
          />
        </Tabs.Panel>
        <Tabs.Panel value="analytics">
          <AnalyticsSection />
        </Tabs.Panel>
        <Tabs.Panel value="jobs">
          <JobsSection />
        </Tabs.Panel>
        <Tabs.Panel value="requests">
          <AdminUpgradeRequests />
        </Tabs.Panel>
        <Tabs.Panel value="feedback">
          <FeedbackSection />
        </Tabs.Panel>
        <Tabs.Panel value="audit">
          <AuditSection key={auditTarget} target={auditTarget} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
