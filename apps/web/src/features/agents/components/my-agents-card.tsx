import { Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatRelative } from '../../../lib/dates';
import { useAgents } from '../api/get-agents';
import { useAgentsT } from '../i18n';
import { AgentCapability, AgentOnlineBadge, RevokeAgentButton } from './agent-cells';
import { NewAgentToken } from './new-agent-token';

/**
 * "Bring your own GPU": a user's private agents. They run only this user's exports (and cloud runs
 * never charge them); the token is shown once.
 */
export function MyAgentsCard() {
  const { t } = useAgentsT();
  const agents = useAgents('mine');
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
        <NewAgentToken shared={false} label={t('mine.name')} placeholder="my-workstation" />
        {live.length > 0 && (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="xs">
              <Table.Tbody>
                {live.map((a) => (
                  <Table.Tr key={a.id}>
                    <Table.Td>
                      <Group gap={6}>
                        <AgentOnlineBadge agent={a} />
                        <Text size="sm" fw={500}>
                          {a.name}
                        </Text>
                      </Group>
                      <Text size="xs" c="dimmed">
                        {[
                          a.gpu?.name ?? t('admin.noGpu'),
                          a.ultralyticsVersion && `ultralytics ${a.ultralyticsVersion}`,
                          a.lastHeartbeat && formatRelative(a.lastHeartbeat),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                      <AgentCapability agent={a} />
                    </Table.Td>
                    <Table.Td style={{ textAlign: 'right' }}>
                      <RevokeAgentButton agent={a} />
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
