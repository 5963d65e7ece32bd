import { Alert, Badge, Button, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconExternalLink, IconRocket } from '@tabler/icons-react';
import { formatBytes, Messages, type BillingSummary } from '@sightline/contracts';
import { notifications } from '../../../lib/notifications';
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
      {(summary.abilities.upgrade || summary.abilities.portal || summary.abilities.cancel) && (
        <Group gap="sm">
          {summary.abilities.upgrade && (
            <>
              <Button leftSection={<IconRocket size={16} />} loading={checkout.isPending && checkout.variables === 'month'} onClick={() => checkout.mutate('month', { onSuccess: go, onError: failed })}>
                {t('plan.upgradeMonthly')}
              </Button>
              <Button variant="light" loading={checkout.isPending && checkout.variables === 'year'} onClick={() => checkout.mutate('year', { onSuccess: go, onError: failed })}>
                {t('plan.upgradeYearly')}
              </Button>
            </>
          )}
          {summary.abilities.portal && (
            <Button variant="default" rightSection={<IconExternalLink size={14} />} loading={portal.isPending} onClick={() => portal.mutate(undefined, { onSuccess: go, onError: failed })}>
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
        </Group>
      )}
      <Limits summary={summary} />
    </SectionCard>
  );
}

function Limits({ summary }: { summary: BillingSummary }) {
  const { t } = useBillingT();
  const l = summary.limits;
  const count = (n: number) => (n >= Number.MAX_SAFE_INTEGER ? t('limits.unlimited') : n.toLocaleString());
  const rows: Array<[string, string]> = [
    [t('limits.storage'), formatBytes(l.storageBytes, 0)],
    [t('limits.models'), count(l.models)],
    [t('limits.inference'), t('limits.inferenceValue', { hour: l.inferencePerHour.toLocaleString(), month: l.inferencePerMonth.toLocaleString() })],
    [t('limits.cloud'), l.cloudTraining && l.cloudRunsConcurrent > 0 ? t('limits.cloudValue', { count: l.cloudRunsConcurrent }) : t('limits.no')],
    [t('limits.dedicated'), l.dedicatedInference ? t('limits.yes') : t('limits.no')],
    [t('limits.teams'), l.teams ? t('limits.yes') : t('limits.no')],
  ];
  return (
    <Stack gap={6}>
      <Text size="sm" fw={600}>
        {t('limits.title')}
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="xs" verticalSpacing={6}>
        {rows.map(([k, v]) => (
          <div key={k}>
            <Text size="xs" c="dimmed">
              {k}
            </Text>
            <Text size="sm">{v}</Text>
          </div>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
