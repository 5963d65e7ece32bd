import { Badge, Button, Group, Select, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { ADMIN_USER_SORTS, type AdminUserSort } from '@sightline/contracts';
import { IconSearch, IconSortAscending, IconSortDescending } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchUsers } from '../api/search-users';
import { useAdminT } from '../i18n';
import { StatusBadge } from './status-badge';
import { UserDrawer } from './user-drawer';

/** Every account: prefix search on email, username or first name, sorts, keyset "load more"; a row opens the user. */
export function UsersSection({ onShowAudit }: { onShowAudit: (uid: string) => void }) {
  const { t } = useAdminT();
  const [q, setQ] = useState('');
  const [sort, setSort] = useState<AdminUserSort>('created');
  const [dir, setDir] = useState<'asc' | 'desc'>('desc');
  const [debounced] = useDebouncedValue(q, 250);
  const [open, setOpen] = useState<string | null>(null);
  const search = useSearchUsers({ q: debounced, sort, dir });
  const users = search.data?.pages.flatMap((p) => p.users) ?? [];
  return (
    <Stack gap="md" data-testid="admin-users">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label={t('users.search')}
          placeholder={t('users.searchPlaceholder')}
          leftSection={<IconSearch size={16} />}
          value={q}
          onChange={(e) => setQ(e.currentTarget.value)}
          style={{ flex: '1 1 240px' }}
        />
        <Select
          label={t('users.sort')}
          data={ADMIN_USER_SORTS.map((s) => ({ value: s, label: t(`users.sortBy.${s}`) }))}
          value={sort}
          onChange={(v) => v && setSort(v as AdminUserSort)}
          allowDeselect={false}
          w={160}
        />
        <Button
          variant="default"
          onClick={() => setDir(dir === 'asc' ? 'desc' : 'asc')}
          leftSection={dir === 'asc' ? <IconSortAscending size={16} /> : <IconSortDescending size={16} />}
        >
          {t(`users.dir.${dir}`)}
        </Button>
      </Group>
      {users.length === 0 ? (
        <Text c="dimmed">{search.isLoading ? '…' : t('users.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover verticalSpacing="xs" fz="sm" aria-label={t('tabs.users')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('users.col.user')}</Table.Th>
                <Table.Th>{t('users.col.email')}</Table.Th>
                <Table.Th>{t('users.col.plan')}</Table.Th>
                <Table.Th>{t('users.col.lastLogin')}</Table.Th>
                <Table.Th>{t('users.col.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {users.map((u) => (
                <Table.Tr key={u.id} onClick={() => setOpen(u.id)} style={{ cursor: 'pointer' }} data-testid="admin-user-row">
                  <Table.Td>
                    <UnstyledButton onClick={() => setOpen(u.id)} fw={500} fz="sm">
                      {u.username}
                    </UnstyledButton>
                    {u.roles.includes('admin') && (
                      <Badge size="xs" variant="light" ml={6}>
                        admin
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{u.email}</Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="outline">
                      {u.plan}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{u.lastLogin ? new Date(u.lastLogin).toLocaleDateString() : '–'}</Table.Td>
                  <Table.Td>
                    <StatusBadge deleted={u.deleted} disabled={u.disabled} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {search.hasNextPage && (
        <Button variant="light" w="fit-content" loading={search.isFetchingNextPage} onClick={() => void search.fetchNextPage()}>
          {t('loadMore')}
        </Button>
      )}
      <UserDrawer id={open} onClose={() => setOpen(null)} onShowAudit={onShowAudit} />
    </Stack>
  );
}
