import { Badge, Button, Table, Text } from '@mantine/core';
import type { LedgerEntry } from '@sightline/contracts';
import { Link } from 'react-router';
import { useBillingT } from '../i18n';
import { Money } from './money';

const KIND_COLOR: Record<LedgerEntry['kind'], string> = { top_up: 'teal', admin_credit: 'grape', hold: 'orange', settle: 'red', release: 'blue' };

/** Ledger rows: when, what, the cause (payment, model, epoch, admin and why), change and balance after. */
export function LedgerTable({
  entries,
  onMore,
  hasMore,
  loadingMore,
}: {
  entries: LedgerEntry[];
  onMore?: () => void;
  hasMore?: boolean;
  loadingMore?: boolean;
}) {
  const { t } = useBillingT();
  if (!entries.length)
    return (
      <Text c="dimmed" size="sm">
        {t('ledger.empty')}
      </Text>
    );
  return (
    <>
      <Table.ScrollContainer minWidth={560}>
        <Table verticalSpacing="xs" striped aria-label={t('ledger.title')} data-testid="ledger-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('ledger.date')}</Table.Th>
              <Table.Th>{t('ledger.what')}</Table.Th>
              <Table.Th>{t('ledger.cause')}</Table.Th>
              <Table.Th ta="right">{t('ledger.amount')}</Table.Th>
              <Table.Th ta="right">{t('ledger.balance')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {entries.map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td style={{ minWidth: 110 }}>
                  <Text size="sm">{new Date(e.created).toLocaleString()}</Text>
                </Table.Td>
                <Table.Td style={{ minWidth: 150 }}>
                  <Badge variant="light" color={KIND_COLOR[e.kind]} size="sm" style={{ overflow: 'visible' }}>
                    {t(`ledger.kind.${e.kind}`)}
                  </Badge>
                </Table.Td>
                <Table.Td>
                  <Cause entry={e} />
                </Table.Td>
                <Table.Td ta="right">
                  <Money size="sm" micro={e.kind === 'settle' ? -e.charged : e.amount} signed />
                </Table.Td>
                <Table.Td ta="right">
                  <Money size="sm" micro={e.balanceAfter} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {hasMore && onMore && (
        <Button variant="subtle" size="xs" onClick={onMore} loading={loadingMore}>
          {t('ledger.more')}
        </Button>
      )}
    </>
  );
}

function Cause({ entry: e }: { entry: LedgerEntry }) {
  const { t } = useBillingT();
  const parts: React.ReactNode[] = [];
  if (e.cause.paymentId) parts.push(t('ledger.payment', { id: e.cause.paymentId }));
  if (e.cause.modelId)
    parts.push(
      <Link key="m" to={`/models/${e.cause.modelId}`}>
        {t('ledger.model', { id: e.cause.modelId })}
      </Link>,
    );
  if (e.cause.epoch !== null) parts.push(t('ledger.epoch', { epoch: e.cause.epoch }));
  if (e.cause.actor) parts.push(t('ledger.by', { name: e.cause.actor.username }));
  if (e.cause.reason && e.kind !== 'settle') parts.push(`“${e.cause.reason}”`);
  return (
    <Text size="sm" c="dimmed">
      {parts.map((p, i) => (
        <span key={i}>
          {i > 0 ? ' · ' : ''}
          {p}
        </span>
      ))}
    </Text>
  );
}
