import { Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../../lib/i18n-namespace';
import en from '../../../locales/en/security.json';
import { useSecurityEvents } from '../api/get-security-events';

addNamespace('security', en);

/** Settings → Security: the account's own security events from the audit log (read-only). */
export function SecurityTab() {
  const { t } = useTranslation('security');
  const events = useSecurityEvents();
  const entries = events.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <Paper withBorder p="lg" radius="md" data-testid="security-events">
      <Title order={2} fz="lg">
        {t('title')}
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        {t('description')}
      </Text>
      {entries.length === 0 ? (
        <Text c="dimmed">{events.isLoading ? '…' : t('empty')}</Text>
      ) : (
        <Stack gap="xs">
          {entries.map((e) => (
            <Group key={e.id} justify="space-between" wrap="wrap" gap="xs" py={4} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
              <Stack gap={0} style={{ minWidth: 0, flex: '1 1 220px' }}>
                <Group gap={6}>
                  <Text size="sm" fw={500}>
                    {t(`action.${e.action}`, { defaultValue: e.action })}
                  </Text>
                  {e.outcome === 'failure' && (
                    <Badge size="xs" color="red" variant="light">
                      {e.outcome}
                    </Badge>
                  )}
                </Group>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {[e.ip, e.userAgent, e.actor.id && e.actor.id !== e.userId ? e.actor.label : null].filter(Boolean).join(' · ')}
                </Text>
              </Stack>
              <Text size="xs" c="dimmed">
                {new Date(e.time).toLocaleString()}
              </Text>
            </Group>
          ))}
          {events.hasNextPage && (
            <Button variant="light" w="fit-content" loading={events.isFetchingNextPage} onClick={() => void events.fetchNextPage()}>
              {t('more', { defaultValue: 'Load more' })}
            </Button>
          )}
        </Stack>
      )}
    </Paper>
  );
}
