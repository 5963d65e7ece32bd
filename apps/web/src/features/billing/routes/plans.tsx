import { Alert, Stack } from '@mantine/core';
import { IconCreditCardOff } from '@tabler/icons-react';
import { PageHeader } from '../../../components/page-header';
import { PageLoader } from '../../../components/page-loader';
import { useRemoteConfig } from '../../../lib/remote-config';
import { useSupportContact } from '../../../lib/support-contact';
import { useBilling } from '../api/get-billing';
import { usePlans } from '../api/get-plans';
import { useMyUpgradeRequest } from '../api/upgrade-requests';
import { PlanComparison } from '../components/plan-comparison';
import { useBillingT } from '../i18n';

/** `/plans`: what each plan includes on this server and the way up (ADR 0030). */
export default function PlansPage() {
  const { t } = useBillingT();
  const { config } = useRemoteConfig();
  const billing = useBilling();
  const plans = usePlans();
  const request = useMyUpgradeRequest();
  const contact = useSupportContact();
  if (!billing.data || !plans.data || request.isPending) return <PageLoader />;
  return (
    <Stack gap="lg" maw={1100}>
      <PageHeader title={t('compare.title')} description={t('compare.description')} />
      {!billing.data.enabled && (
        <Alert color="gray" variant="light" icon={<IconCreditCardOff size={18} />} title={t('off.title')} data-testid="billing-off">
          {t('compare.offBody')}
        </Alert>
      )}
      <PlanComparison
        summary={billing.data}
        offers={plans.data}
        flags={config.flags}
        request={request.data?.request ?? null}
        contact={contact.data?.email ?? null}
      />
    </Stack>
  );
}
