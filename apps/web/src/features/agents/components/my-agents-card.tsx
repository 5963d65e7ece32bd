import { useState } from 'react';
import { Alert, Badge, Button, Code, Group, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconKey, IconTrash } from '@tabler/icons-react';
import { isApiError } from '../../../lib/api-client';
import { formatRelative } from '../../../lib/dates';
import { errorMessage } from '../../../lib/i18n';
import { notifications } from '../../../lib/notifications';
import { useCreateAgent } from '../api/create-agent';
import { useAgents } from '../api/get-agents';
import { useRevokeAgent } from '../api/revoke-agent';
import { useAgentsT } from '../i18n';

const fail = (err: unknown) => notifications.error(isApiError(err) ? errorMessage(err.code, err.message) : String(err));

/**
 * "Bring your own GPU": a user's private agents. They run only this user's exports (and cloud runs
 * never charge them); the token is shown once.
 */
export function MyAgentsCard() {
  const { t } = useAgentsT();
  const agents = useAgents('mine');
  const create = useCreateAgent();
  const revoke = useRevokeAgent();
  const [name, setName] = useState('');
  const [token, setToken] = useState<string | null>(null);
  const live = (agents.data ?? []).filter((a) => !a.revoked);
  return (
    <Paper withBorder radius="md" p="lg" mt="lg" data-testid="my-agents">
      <Stack gap="sm">
        <div>
          <Title order={3} fz="md">
            {t('mine.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('mine.subtitle')}
          </Text>
        </div>
        <Group align="flex-end" gap="sm">
          <TextInput label={t('mine.name')} placeholder="my-workstation" value={name} onChange={(e) => setName(e.currentTarget.value)} w={240} />
          <Button
            leftSection={<IconKey size={16} />}
            disabled={!name.trim()}
            loading={create.isPending}
            onClick={() =>
              create.mutate(
                { name: name.trim(), shared: false },
                {
                  onSuccess: (res) => {
                    setToken(res.token);
                    setName('');
                  },
                  onError: fail,
                },
              )
            }
          >
            {t('admin.createToken')}
          </Button>
        </Group>
        {token && (
          <Alert color="teal" variant="light" withCloseButton onClose={() => setToken(null)} title={t('admin.tokenOnce')}>
            <Code block>{`npx @sightline/agent --hub ${window.location.origin} --token ${token}`}</Code>
          </Alert>
        )}
        {live.length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs">
              <Table.Tbody>
                {live.map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td>
                      <Group gap={6}>
                        <Badge size="xs" color={a.online ? 'teal' : 'gray'} variant="dot">
                          {a.online ? t('admin.online') : t('admin.offline')}
                        </Badge>
                        <Text size="sm" fw={500}>
                          {a.name}
                        </Text>
                      </Group>
                      <Text size="xs" c="dimmed">
                        {[a.gpu?.name ?? t('admin.noGpu'), a.lastHeartbeat && formatRelative(a.lastHeartbeat)].filter(Boolean).join(' · ')}
                      </Text>
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>
                      <Button size="compact-sm" variant="subtle" color="red" leftSection={<IconTrash size={14} />} onClick={() => revoke.mutate(a.id, { onError: fail })}>
                        {t('admin.revoke')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
