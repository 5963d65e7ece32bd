import { Badge, Button, Group, Paper, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifications } from '../../../lib/notifications';
import { useAdminUsers } from '../api/get-admin-users';
import { notifyError } from '../../../lib/notify-error';
import { useRestoreUser } from '../api/restore-user';
import { useAdminT } from '../i18n';

/** Every account of the server, newest first in keyset pages (ADR 0042); deleted ones can be restored during the grace period. */
export function UsersTable() {
  const { t } = useTranslation('pages');
  const { t: ta } = useAdminT();
  const users = useAdminUsers(true);
  const restore = useRestoreUser();
  const rows = users.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <Paper withBorder p="lg" radius="md" mt="lg">
      <Title order={2} fz="lg" mb="md">
        {t('admin.users')}
      </Title>
      {rows.length === 0 ? (
        <Text c="dimmed">{users.isLoading ? '…' : t('admin.usersEmpty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table striped verticalSpacing="xs" aria-label={t('admin.users')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('admin.col.user')}</Table.Th>
                <Table.Th>{t('admin.col.email')}</Table.Th>
                <Table.Th>{t('admin.col.plan')}</Table.Th>
                <Table.Th>{t('admin.col.created')}</Table.Th>
                <Table.Th>{t('admin.col.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    <Group gap={6}>
                      <Text size="sm" fw={500}>
                        {u.username}
                      </Text>
                      {u.roles.includes('admin') && (
                        <Badge size="xs" variant="light">
                          admin
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {u.email}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="outline">
                      {u.plan}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{new Date(u.dates.created).toLocaleDateString()}</Text>
                  </Table.Td>
                  <Table.Td>
                    {/* The one action of this list sits with the state it acts on: restoring a deleted account. */}
                    {u.dates.deleted ? (
                      <Group gap="xs" wrap="wrap">
                        <Badge color="red" variant="light">
                          {t('admin.deleted', { date: new Date(u.dates.deleted).toLocaleDateString() })}
                        </Badge>
                        <Button
                          size="xs"
                          variant="light"
                          loading={restore.isPending && restore.variables === u.id}
                          onClick={() =>
                            restore.mutate(u.id, {
                              onSuccess: () => notifications.success(t('admin.restored')),
                              onError: notifyError,
                            })
                          }
                        >
                          {t('admin.restore')}
                        </Button>
                      </Group>
                    ) : (
                      <Badge color="green" variant="light">
                        {t('admin.active')}
                      </Badge>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {users.hasNextPage && (
        <Button variant="light" w="fit-content" mt="md" loading={users.isFetchingNextPage} onClick={() => void users.fetchNextPage()}>
          {ta('loadMore')}
        </Button>
      )}
    </Paper>
  );
}
