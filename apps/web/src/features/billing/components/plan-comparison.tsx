import { Alert, Badge, Button, Group, List, Modal, Paper, SimpleGrid, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconCheck, IconInfoCircle, IconMinus, IconSend } from '@tabler/icons-react';
import {
  formatBytes,
  PLANS,
  type BillingSummary,
  type Plan,
  type PlanLimits,
  type PlanOffer,
  type RemoteConfig,
  type UpgradeRequest,
} from '@sightline/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { notifications } from '../../../lib/notifications';
import { notifyError } from '../../../lib/notify-error';
import { useRequestUpgrade } from '../api/upgrade-requests';
import { useBillingT } from '../i18n';

type Flags = RemoteConfig['flags'];
const rank = (p: Plan) => PLANS.indexOf(p);

/** One line of a plan card: what it is and whether the plan has it on this server. */
interface Feature {
  key: string;
  value: string;
  /** false: a plain "no"; null: the server turns it off for everyone */
  on: boolean | null;
}

/**
 * What a plan gives on this server: its limits, with whatever a feature flag turns off said in the
 * user's words ("not enabled on this server") instead of promised (ADR 0030).
 */
export function useFeatures() {
  const { t } = useBillingT();
  return (limits: PlanLimits, flags: Flags, billingOn: boolean): Feature[] => {
    const off = t('compare.offHere');
    const count = (n: number) => (n >= Number.MAX_SAFE_INTEGER ? t('limits.unlimited') : n.toLocaleString());
    const cloud = limits.cloudTraining && limits.cloudRunsConcurrent > 0;
    return [
      { key: 'storage', value: formatBytes(limits.storageBytes, 0), on: true },
      { key: 'models', value: count(limits.models), on: true },
      {
        key: 'inference',
        value: t('limits.inferenceValue', { hour: limits.inferencePerHour.toLocaleString(), month: limits.inferencePerMonth.toLocaleString() }),
        on: true,
      },
      {
        key: 'cloud',
        value: !flags.cloudTraining ? off : cloud ? t('limits.cloudValue', { count: limits.cloudRunsConcurrent }) : t('limits.no'),
        on: flags.cloudTraining ? cloud : null,
      },
      {
        key: 'dedicated',
        value: !flags.dedicatedInference ? off : limits.dedicatedInference ? t('limits.yes') : t('limits.no'),
        on: flags.dedicatedInference ? limits.dedicatedInference : null,
      },
      // Anyone may join a team they are invited to; creating one is what the plan decides.
      {
        key: 'teams',
        value: !flags.teamsCollaboration ? off : limits.teams ? t('limits.teamsCreate') : t('limits.teamsJoin'),
        on: flags.teamsCollaboration ? limits.teams : null,
      },
      {
        key: 'wallet',
        value: !limits.walletTopUp ? t('limits.no') : !billingOn ? t('limits.walletByAdmin') : flags.walletTopUp ? t('limits.yes') : off,
        on: !limits.walletTopUp ? false : billingOn && !flags.walletTopUp ? null : true,
      },
    ];
  };
}

/** The sentences for what this server turns off, for the note under the plans. */
export function offSentences(flags: Flags, t: ReturnType<typeof useBillingT>['t']): string[] {
  const out: string[] = [];
  if (!flags.cloudTraining) out.push(t('compare.cloudOff'));
  if (!flags.dedicatedInference) out.push(t('compare.dedicatedOff'));
  if (!flags.teamsCollaboration) out.push(t('compare.teamsOff'));
  return out;
}

/**
 * The plan comparison (ADR 0030): one card per plan with what it includes here, the user's plan
 * marked, and the way up: checkout where the server takes payments, otherwise a request the admins
 * see in their area and grant with one click.
 */
export function PlanComparison({
  summary,
  offers,
  flags,
  request,
  contact,
}: {
  summary: BillingSummary;
  offers: PlanOffer[];
  flags: Flags;
  request: UpgradeRequest | null;
  contact: string | null;
}) {
  const { t } = useBillingT();
  const features = useFeatures();
  const [asking, setAsking] = useState<'pro' | 'enterprise' | null>(null);
  const notes = offSentences(flags, t);
  return (
    <Stack gap="lg" data-testid="plan-comparison">
      {request && (
        <Alert
          color="blue"
          variant="light"
          icon={<IconSend size={18} />}
          data-testid="upgrade-request-open"
          title={t('request.openTitle', { plan: t(`plans.${request.plan}`) })}
        >
          {t('request.openBody', { date: new Date(request.created).toLocaleDateString() })}
          {contact ? ` ${t('request.contact', { email: contact })}` : ''}
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
        {offers.map(({ plan, limits }) => {
          const mine = plan === summary.plan;
          const higher = rank(plan) > rank(summary.plan);
          const requested = request?.plan === plan;
          return (
            <Paper
              key={plan}
              withBorder
              radius="md"
              p="lg"
              data-testid={`plan-${plan}`}
              style={mine ? { borderColor: 'var(--mantine-color-blue-5)', borderWidth: 2 } : undefined}
            >
              <Stack gap="sm" h="100%">
                <Group justify="space-between" wrap="nowrap">
                  <Title order={2} fz="lg">
                    {t(`plans.${plan}`)}
                  </Title>
                  {mine && (
                    <Badge variant="light" data-testid="plan-current">
                      {t('compare.current')}
                    </Badge>
                  )}
                </Group>
                <Text size="sm" c="dimmed">
                  {t(`compare.tagline.${plan}`)}
                </Text>
                <List spacing={6} size="sm" center>
                  {features(limits, flags, summary.enabled).map((f) => (
                    <List.Item
                      key={f.key}
                      icon={
                        f.on ? (
                          <IconCheck size={16} color="var(--mantine-color-teal-6)" aria-hidden />
                        ) : (
                          <IconMinus size={16} color="var(--mantine-color-dimmed)" aria-hidden />
                        )
                      }
                    >
                      <Text span size="sm" fw={500}>
                        {t(`limits.${f.key}`)}
                      </Text>
                      <Text span size="sm" c={f.on ? undefined : 'dimmed'}>
                        {': '}
                        {f.value}
                      </Text>
                    </List.Item>
                  ))}
                </List>
                <div style={{ marginTop: 'auto' }}>
                  {higher && plan === 'pro' && summary.abilities.upgrade ? (
                    <Button component={Link} to="/settings?tab=billing" fullWidth>
                      {t('compare.checkout')}
                    </Button>
                  ) : higher && plan !== 'free' ? (
                    <Button
                      fullWidth
                      variant={requested ? 'light' : 'filled'}
                      disabled={requested}
                      onClick={() => setAsking(plan)}
                      data-testid={`request-${plan}`}
                    >
                      {requested ? t('request.sent') : t('request.button', { plan: t(`plans.${plan}`) })}
                    </Button>
                  ) : null}
                </div>
              </Stack>
            </Paper>
          );
        })}
      </SimpleGrid>
      {notes.length > 0 && (
        <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} />} data-testid="plan-flags-off">
          <Stack gap={4}>
            {notes.map((n) => (
              <Text key={n} size="sm">
                {n}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}
      <RequestDialog plan={asking} onClose={() => setAsking(null)} />
    </Stack>
  );
}

function RequestDialog({ plan, onClose }: { plan: 'pro' | 'enterprise' | null; onClose: () => void }) {
  const { t } = useBillingT();
  const send = useRequestUpgrade();
  const [message, setMessage] = useState('');
  const name = plan ? t(`plans.${plan}`) : '';
  return (
    <Modal opened={plan !== null} onClose={onClose} title={t('request.title', { plan: name })} centered>
      <Stack gap="sm">
        <Text size="sm">{t('request.body')}</Text>
        <Textarea
          label={t('request.message')}
          placeholder={t('request.messageHint')}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          maxLength={1000}
          autosize
          minRows={3}
          data-testid="request-message"
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('request.cancel')}
          </Button>
          <Button
            leftSection={<IconSend size={16} />}
            loading={send.isPending}
            data-testid="request-send"
            onClick={() =>
              plan &&
              send.mutate(
                { plan, message },
                {
                  onSuccess: () => {
                    notifications.success(t('request.done'));
                    setMessage('');
                    onClose();
                  },
                  onError: notifyError,
                },
              )
            }
          >
            {t('request.send')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
