import { Badge, Paper, Table, Text, Title } from '@mantine/core';
import { useAuthFailures } from '../api/get-auth-failures';
import { useAdminT } from '../i18n';

/** Who keeps failing to sign in (per account and per IP) and who is blocked now, from the sign-in throttle. */
export function AuthFailures() {
  const { t } = useAdminT();
  const rows = useAuthFailures().data ?? [];
  return (
    <Paper withBorder p="md" radius="md" data-testid="admin-auth-failures">
      <Title order={2} fz="md" mb="xs">
        {t('failures.title')}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('failures.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing={4} fz="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('failures.subject')}</Table.Th>
                <Table.Th>{t('failures.kind')}</Table.Th>
                <Table.Th ta="right">{t('failures.recent')}</Table.Th>
                <Table.Th ta="right">{t('failures.total')}</Table.Th>
                <Table.Th>{t('failures.last')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={`${r.kind}:${r.subject}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {r.subject}{' '}
                    {r.blocked && (
                      <Badge size="xs" color="red" variant="light">
                        {t('failures.blocked')}
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{r.kind}</Table.Td>
                  <Table.Td ta="right">{r.windowCount}</Table.Td>
                  <Table.Td ta="right">{r.total}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{new Date(r.lastAt).toLocaleString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Paper>
  );
}
