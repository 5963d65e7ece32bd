import { Alert, Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { IconAlertTriangle, IconExternalLink, IconLayoutColumns, IconRocket } from '@tabler/icons-react';
import { Messages, type BillingSummary } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
import { useRemoteConfig } from '../../../lib/remote-config';
import { offSentences, useFeatures } from './plan-comparison';
import { useCancelSubscription } from '../api/cancel-subscription';
import { useCreateCheckoutPro } from '../api/create-checkout-pro';
import { useCreatePortalSession } from '../api/create-portal-session';
import { useBillingT } from '../i18n';
import { SectionCard } from '../../../components/section-card';

const fmtDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

/** The plan: what it is, when it renews or ends, and the buttons the server says the user may press. */
export function PlanCard({ summary }: { summary: BillingSummary }) {
  const { t } = useBillingT();
  const checkout = useCreateCheckoutPro();
  const portal = useCreatePortalSession();
  const cancel = useCancelSubscription();
  const sub = summary.subscription;
  const go = ({ url }: { url: string }) => window.location.assign(url);
  // spec §8: plan, portal and top-up failures all read the same sentence
  const failed = () => notifications.error(Messages.somethingWrong);

  return (
    <SectionCard
      title={
        <Group gap="xs">
          {t('plan.title')}
          <Badge variant="light" color={summary.plan === 'free' ? 'gray' : 'violet'} data-testid="billing-plan">
            {t(`plans.${summary.plan}`)}
          </Badge>
        </Group>
      }
      description={t('plan.current', { plan: t(`plans.${summary.plan}`) })}
    >
      {sub && (
        <Stack gap={4}>
          {sub.source === 'admin' && <Text size="sm">{t('plan.setByAdmin')}</Text>}
          {sub.currentPeriodEnd && (
            <Text size="sm" data-testid="billing-renewal">
              {sub.cancelAtPeriodEnd ? t('plan.ends', { date: fmtDate(sub.currentPeriodEnd) }) : t('plan.renews', { date: fmtDate(sub.currentPeriodEnd) })}
            </Text>
          )}
          {sub.status === 'past_due' && (
            <Alert color="orange" icon={<IconAlertTriangle size={16} />} p="xs">
              {t('plan.pastDue')}
            </Alert>
          )}
        </Stack>
      )}
      <Group gap="sm">
        {summary.abilities.upgrade && (
          <>
            <Button
              leftSection={<IconRocket size={16} />}
              loading={checkout.isPending && checkout.variables === 'month'}
              onClick={() => checkout.mutate('month', { onSuccess: go, onError: failed })}
            >
              {t('plan.upgradeMonthly')}
            </Button>
            <Button
              variant="light"
              loading={checkout.isPending && checkout.variables === 'year'}
              onClick={() => checkout.mutate('year', { onSuccess: go, onError: failed })}
            >
              {t('plan.upgradeYearly')}
            </Button>
          </>
        )}
        {summary.abilities.portal && (
          <Button
            variant="default"
            rightSection={<IconExternalLink size={14} />}
            loading={portal.isPending}
            onClick={() => portal.mutate(undefined, { onSuccess: go, onError: failed })}
          >
            {t('plan.portal')}
          </Button>
        )}
        {summary.abilities.cancel && sub && (
          <Button
            variant="subtle"
            color={sub.cancelAtPeriodEnd ? 'blue' : 'red'}
            loading={cancel.isPending}
            onClick={() =>
              cancel.mutate(!sub.cancelAtPeriodEnd, {
                onSuccess: () => notifications.success(sub.cancelAtPeriodEnd ? t('plan.resumed') : t('plan.cancelled')),
                onError: failed,
              })
            }
          >
            {sub.cancelAtPeriodEnd ? t('plan.resume') : t('plan.cancel')}
          </Button>
        )}
        {summary.plan !== 'enterprise' && !summary.abilities.upgrade ? (
          <Button component={Link} to="/plans" leftSection={<IconRocket size={16} />} data-testid="plan-compare">
            {t('compare.askUpgrade')}
          </Button>
        ) : (
          <Button component={Link} to="/plans" variant="subtle" leftSection={<IconLayoutColumns size={16} />} data-testid="plan-compare">
            {t('compare.open')}
          </Button>
        )}
      </Group>
      <Limits summary={summary} />
    </SectionCard>
  );
}

function Limits({ summary }: { summary: BillingSummary }) {
  const { t } = useBillingT();
  const { config } = useRemoteConfig();
  const features = useFeatures();
  // Only what this server really gives: flags that are off read "not enabled on this server".
  const rows = features(summary.limits, config.flags, summary.enabled);
  const notes = offSentences(config.flags, t);
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {t('limits.title')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" verticalSpacing={6} data-testid="plan-limits">
        {rows.map((f) => (
          <div key={f.key}>
            <Text size="xs" c="dimmed">
              {t(`limits.${f.key}`)}
            </Text>
            <Text size="sm" c={f.on === null ? 'dimmed' : undefined}>
              {f.value}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {notes.length > 0 && (
        <Text size="xs" c="dimmed">
          {notes.join(' ')}
        </Text>
      )}
    </Stack>
  );
}
