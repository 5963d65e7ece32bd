import { Alert, Group, Progress, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../../components/page-loader';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';
import { TRAINING_NS } from '../../../lib/i18n-training';
import { useInferenceUsage } from '../api/get-inference-usage';
import { SectionCard } from '../../../components/section-card';

const monthLabel = (month: string, language: string) => {
  const [y, m] = month.split('-').map(Number);
  return y && m ? new Intl.DateTimeFormat(language, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(y, m - 1, 1))) : month;
};

/** Shared-inference calls this month against the plan's limits, split by API key (product notes, complaint 9). */
export function InferenceUsageCard() {
  const { t, i18n } = useTranslation(TRAINING_NS);
  const usage = useInferenceUsage();
  const fmt = new Intl.NumberFormat(i18n.language);
  return (
    <SectionCard title={t('usage.title')} description={usage.data ? t('usage.description', { month: monthLabel(usage.data.month, i18n.language) }) : undefined}>
      {usage.isPending ? (
        <PageLoader fullHeight={false} />
      ) : usage.isError ? (
        <Alert color="red">{isApiError(usage.error) ? errorMessage(usage.error.code, usage.error.message) : String(usage.error)}</Alert>
      ) : (
        <Stack gap="sm" data-testid="inference-usage">
          <div>
            <Group justify="space-between" mb={4}>
              <Text size="sm" fw={500}>
                {t('usage.total', { used: fmt.format(usage.data.total), limit: fmt.format(usage.data.limits.perMonth) })}
              </Text>
              <Text size="xs" c="dimmed">
                {t('usage.perHour', { limit: fmt.format(usage.data.limits.perHour) })}
              </Text>
            </Group>
            <Progress
              value={Math.min(100, (usage.data.total / Math.max(1, usage.data.limits.perMonth)) * 100)}
              color={usage.data.total >= usage.data.limits.perMonth ? 'red' : usage.data.total >= usage.data.limits.perMonth * 0.8 ? 'orange' : 'blue'}
              aria-label={t('usage.total', { used: usage.data.total, limit: usage.data.limits.perMonth })}
            />
          </div>
          {usage.data.perKey.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('usage.none')}
            </Text>
          ) : (
            <Table verticalSpacing={6} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('usage.key')}</Table.Th>
                  <Table.Th ta="right">{t('usage.calls')}</Table.Th>
                  <Table.Th w="35%">{t('usage.share')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {[...usage.data.perKey]
                  .sort((a, b) => b.count - a.count)
                  .map((k) => (
                    <Table.Tr key={k.apiKeyId ?? 'session'} data-testid="usage-row">
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {k.apiKeyId ? k.name : t('usage.session')}
                        </Text>
                        {k.prefix && (
                          <Text size="xs" c="dimmed" ff="monospace">
                            {k.prefix}…
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{fmt.format(k.count)}</Table.Td>
                      <Table.Td>
                        <Progress value={usage.data.total ? (k.count / usage.data.total) * 100 : 0} size="sm" aria-label={`${k.name}: ${k.count}`} />
                      </Table.Td>
                    </Table.Tr>
                  ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      )}
    </SectionCard>
  );
}
