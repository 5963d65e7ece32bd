import { Accordion, Badge, Button, Group, Paper, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useOutbox } from '../api/get-outbox';
import { useAdminT } from '../i18n';

/** Mails the server wrote; with no SMTP this is the only place they can be read. */
export function OutboxList() {
  const { t } = useTranslation('pages');
  const { t: ta } = useAdminT();
  const outbox = useOutbox(true);
  const mails = outbox.data?.pages.flatMap((p) => p.mails) ?? [];
  return (
    <Paper withBorder p="lg" radius="md" mt="lg">
      <Title order={2} fz="lg" mb="md">
        {t('admin.outbox')}
      </Title>
      {mails.length === 0 ? (
        <Text c="dimmed">{outbox.isLoading ? '…' : t('admin.outboxEmpty')}</Text>
      ) : (
        <Accordion variant="separated">
          {mails.map((m) => (
            <Accordion.Item key={m.id} value={m.id}>
              <Accordion.Control>
                <Group justify="space-between" wrap="nowrap" pr="sm">
                  <div>
                    <Text size="sm" fw={500}>
                      {m.subject}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {m.to} · {new Date(m.created).toLocaleString()}
                    </Text>
                  </div>
                  {m.error ? (
                    <Badge color="red" variant="light">
                      {t('admin.failed', { error: m.error.slice(0, 40) })}
                    </Badge>
                  ) : (
                    <Badge color={m.sent ? 'green' : 'gray'} variant="light">
                      {m.sent ? t('admin.sent') : t('admin.notSent')}
                    </Badge>
                  )}
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {m.text}
                </Text>
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
      )}
      {outbox.hasNextPage && (
        <Button variant="light" w="fit-content" mt="md" loading={outbox.isFetchingNextPage} onClick={() => void outbox.fetchNextPage()}>
          {ta('loadMore')}
        </Button>
      )}
    </Paper>
  );
}
