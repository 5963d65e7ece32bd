import { Badge, Button, Center, Loader, ScrollArea, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import type { InfiniteData, UseInfiniteQueryResult } from '@tanstack/react-query';
import type { WebhookDeliveriesPage, WebhookDelivery } from '@sightline/contracts';
import { isApiError } from '../../../lib/api-client';
import { notifications } from '../../../lib/notifications';
import { useRedeliver } from '../api/redeliver';
import { useWebhooksT } from '../i18n';

const COLORS = { pending: 'gray', retrying: 'orange', succeeded: 'green', failed: 'red' } as const;
const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

export function DeliveryStatus({ status }: { status: WebhookDelivery['status'] }) {
  const { t } = useWebhooksT();
  return (
    <Badge color={COLORS[status]} variant="light">
      {t(`delivery.statuses.${status}`)}
    </Badge>
  );
}

/** Deliveries with status code, response time and attempts; redeliver sends one again. */
export function DeliveriesTable({ deliveries, canRedeliver = true }: { deliveries: WebhookDelivery[]; canRedeliver?: boolean }) {
  const { t } = useWebhooksT();
  const redeliver = useRedeliver();
  if (deliveries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {t('delivery.none')}
      </Text>
    );
  }
  return (
    <ScrollArea type="auto">
      <Table striped highlightOnHover miw={720} fz="sm" aria-label={t('hook.deliveries')} style={{ whiteSpace: 'nowrap' }}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('delivery.event')}</Table.Th>
            <Table.Th>{t('delivery.status')}</Table.Th>
            <Table.Th>{t('delivery.code')}</Table.Th>
            <Table.Th>{t('delivery.time')}</Table.Th>
            <Table.Th>{t('delivery.attempts')}</Table.Th>
            <Table.Th>{t('delivery.when')}</Table.Th>
            {canRedeliver && <Table.Th />}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {deliveries.map((d) => (
            <Table.Tr key={d.id} data-testid="webhook-delivery">
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {d.event}
                </Text>
              </Table.Td>
              <Table.Td>
                <Tooltip label={d.error ?? ''} disabled={!d.error} multiline maw={360} withArrow>
                  <span>
                    <DeliveryStatus status={d.status} />
                  </span>
                </Tooltip>
                {d.status === 'retrying' && d.nextAttemptAt && (
                  <Text size="xs" c="dimmed">
                    {t('delivery.next', { when: when(d.nextAttemptAt) })}
                  </Text>
                )}
              </Table.Td>
              <Table.Td>{d.statusCode ?? '—'}</Table.Td>
              <Table.Td>{d.responseMs === null ? '—' : `${d.responseMs} ms`}</Table.Td>
              <Table.Td>{d.attempts}</Table.Td>
              <Table.Td>{when(d.lastAttemptAt ?? d.created)}</Table.Td>
              {canRedeliver && (
                <Table.Td>
                  <Button
                    size="compact-xs"
                    variant="subtle"
                    leftSection={<IconRefresh size={14} />}
                    loading={redeliver.isPending && redeliver.variables?.deliveryId === d.id}
                    onClick={() =>
                      redeliver.mutate(
                        { webhookId: d.webhookId, deliveryId: d.id },
                        {
                          onSuccess: () => notifications.success(t('delivery.redelivered')),
                          onError: (err) => notifications.error(isApiError(err) ? err.message : String(err)),
                        },
                      )
                    }
                  >
                    {t('delivery.redeliver')}
                  </Button>
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollArea>
  );
}

/** Keyset pages of deliveries, newest first (ADR 0042): the pages loaded, and older ones on request. */
export function PagedDeliveries({ query }: { query: UseInfiniteQueryResult<InfiniteData<WebhookDeliveriesPage>> }) {
  const { t } = useWebhooksT();
  if (query.isPending) return <Loader size="sm" />;
  return (
    <Stack gap="xs">
      <DeliveriesTable deliveries={query.data?.pages.flatMap((p) => p.items) ?? []} />
      {query.hasNextPage && (
        <Center>
          <Button size="xs" variant="default" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage} data-testid="deliveries-load-more">
            {t('delivery.loadMore')}
          </Button>
        </Center>
      )}
    </Stack>
  );
}
