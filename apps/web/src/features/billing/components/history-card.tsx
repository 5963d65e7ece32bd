import { Anchor, Badge, Button, Group, Table, Text } from '@mantine/core';
import { Messages } from '@sightline/contracts';
import { useEffect, useRef } from 'react';
import { notifications } from '../../../lib/notifications';
import { useBillingHistory } from '../api/get-billing-history';
import { useBillingT } from '../i18n';
import { Money } from './money';
import { SectionCard } from '../../../components/section-card';

/** Stripe invoices and receipts, newest first; "Load more" pages with `after` (spec §7). */
export function HistoryCard() {
  const { t } = useBillingT();
  const history = useBillingHistory(true);
  const pages = history.data?.pages ?? [];
  const invoices = pages.flatMap((p) => p.invoices);
  // spec §8: a failed history load is announced only when paginating (the first page shows inline)
  const announced = useRef(0);
  useEffect(() => {
    if (history.isFetchNextPageError && announced.current !== history.errorUpdatedAt) {
      announced.current = history.errorUpdatedAt;
      notifications.error(Messages.somethingWrong);
    }
  }, [history.isFetchNextPageError, history.errorUpdatedAt]);

  return (
    <SectionCard title={t('history.title')} description={t('history.description')} testId="billing-history">
      {history.isError && !pages.length ? (
        <Text size="sm" c="red">
          {t('history.failed')}
        </Text>
      ) : !invoices.length ? (
        <Text size="sm" c="dimmed">
          {history.isLoading ? '…' : t('history.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="xs" aria-label={t('history.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('history.date')}</Table.Th>
                <Table.Th>{t('history.number')}</Table.Th>
                <Table.Th>{t('history.status')}</Table.Th>
                <Table.Th ta="right">{t('history.amount')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {invoices.map((inv) => (
                <Table.Tr key={inv.id}>
                  <Table.Td>
                    <Text size="sm">{new Date(inv.created).toLocaleDateString()}</Text>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{inv.number ?? inv.id}</Text>
                    {inv.description && (
                      <Text size="xs" c="dimmed">
                        {inv.description}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={inv.status === 'paid' ? 'teal' : 'gray'}>
                      {inv.status ?? '—'}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right">
                    <Money size="sm" micro={inv.amount} />
                  </Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {inv.hostedInvoiceUrl && (
                        <Anchor size="sm" href={inv.hostedInvoiceUrl} target="_blank" rel="noreferrer">
                          {t('history.view')}
                        </Anchor>
                      )}
                      {inv.invoicePdf && (
                        <Anchor size="sm" href={inv.invoicePdf} target="_blank" rel="noreferrer">
                          {t('history.pdf')}
                        </Anchor>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {history.hasNextPage && (
        <Button variant="subtle" size="xs" onClick={() => void history.fetchNextPage()} loading={history.isFetchingNextPage}>
          {t('history.more')}
        </Button>
      )}
    </SectionCard>
  );
}
