import { Anchor, Badge, Button, Group, Select, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { AUDIT_ACTIONS } from '@sightline/contracts';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { auditCsvUrl, useAudit } from '../api/get-audit';
import { useAdminT } from '../i18n';
import { AuthFailures } from './auth-failures';

const GROUPS = ['auth.', 'account.', 'api_key.', 'user.', 'item.', 'team.', 'job.', 'admin.'];

/** The append-only audit log: filter by action, actor or target (a user id also matches the account concerned); CSV export. */
export function AuditSection({ target: initialTarget = '' }: { target?: string }) {
  const { t } = useAdminT();
  const [action, setAction] = useState<string | null>(null);
  const [actor, setActor] = useState('');
  const [target, setTarget] = useState(initialTarget);
  const [filter] = useDebouncedValue({ action: action ?? '', actor, target }, 250);
  const audit = useAudit(filter);
  const entries = audit.data?.pages.flatMap((p) => p.entries) ?? [];
  const actionOptions = [
    { group: t('audit.groups'), items: GROUPS.map((g) => ({ value: g, label: `${g}*` })) },
    { group: t('audit.actions'), items: AUDIT_ACTIONS.map((a) => ({ value: a, label: a })) },
  ];
  return (
    <Stack gap="md" data-testid="admin-audit">
      <AuthFailures />
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select label={t('audit.action')} data={actionOptions} value={action} onChange={setAction} clearable searchable w={220} />
        <TextInput label={t('audit.actor')} placeholder={t('audit.idPlaceholder')} value={actor} onChange={(e) => setActor(e.currentTarget.value)} w={200} />
        <TextInput label={t('audit.target')} placeholder={t('audit.idPlaceholder')} value={target} onChange={(e) => setTarget(e.currentTarget.value)} w={200} />
        <Anchor href={auditCsvUrl(filter)} download size="sm" mb={6}>
          <Group gap={4}>
            <IconDownload size={16} />
            {t('exportCsv')}
          </Group>
        </Anchor>
      </Group>
      {entries.length === 0 ? (
        <Text c="dimmed">{audit.isLoading ? '…' : t('audit.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped verticalSpacing="xs" fz="sm" aria-label={t('tabs.audit')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('audit.time')}</Table.Th>
                <Table.Th>{t('audit.action')}</Table.Th>
                <Table.Th>{t('audit.actor')}</Table.Th>
                <Table.Th>{t('audit.target')}</Table.Th>
                <Table.Th>{t('audit.details')}</Table.Th>
                <Table.Th>{t('audit.ip')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((e) => (
                <Table.Tr key={e.id} data-testid="audit-row">
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{new Date(e.time).toLocaleString()}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge
                      size="sm"
                      variant="light"
                      tt="none"
                      styles={{ label: { overflow: 'visible' } }}
                      color={e.outcome === 'failure' ? 'red' : e.action.startsWith('admin') || e.action.startsWith('user.') ? 'violet' : 'gray'}
                    >
                      {e.action}
                    </Badge>
                  </Table.Td>
                  <Table.Td style={{ overflowWrap: 'break-word' }}>{e.actor.label ?? e.actor.id ?? t('audit.system')}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'break-word' }}>{e.target.type ? `${e.target.type}: ${e.target.label ?? e.target.id}` : '–'}</Table.Td>
                  <Table.Td style={{ overflowWrap: 'anywhere', maxWidth: 260 }}>
                    <Text size="xs" c="dimmed">
                      {Object.entries(e.meta)
                        .filter(([, v]) => v !== undefined && v !== null && v !== '')
                        .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
                        .join(' · ')}
                    </Text>
                  </Table.Td>
                  <Table.Td title={e.userAgent ?? undefined}>{e.ip ?? '–'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {audit.hasNextPage && (
        <Button variant="light" w="fit-content" loading={audit.isFetchingNextPage} onClick={() => void audit.fetchNextPage()}>
          {t('loadMore')}
        </Button>
      )}
    </Stack>
  );
}
