import { Badge, Button, Text } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import type { Agent } from '@sightline/contracts';
import { notifyError } from '../../../lib/notify-error';
import { useRevokeAgent } from '../api/revoke-agent';
import { useAgentsT } from '../i18n';

/** Online or offline, as a dot badge (admin pool and a user's own agents). */
export function AgentOnlineBadge({ agent }: { agent: Pick<Agent, 'online'> }) {
  const { t } = useAgentsT();
  return (
    <Badge size="xs" color={agent.online ? 'teal' : 'gray'} variant="dot">
      {agent.online ? t('admin.online') : t('admin.offline')}
    </Badge>
  );
}

/** Revokes the agent's token; a failure is notified. */
export function RevokeAgentButton({ agent }: { agent: Pick<Agent, 'id'> }) {
  const { t } = useAgentsT();
  const revoke = useRevokeAgent();
  return (
    <Button
      size="compact-sm"
      variant="subtle"
      color="red"
      leftSection={<IconTrash size={14} />}
      onClick={() => revoke.mutate(agent.id, { onError: notifyError })}
    >
      {t('admin.revoke')}
    </Button>
  );
}

/**
 * What the agent can run, and why not (ADR 0021): an agent that cannot train says why (its
 * ultralytics lacks the Platform protocol, no device type matches, a private agent); one that can
 * run nothing (no ultralytics) says so in red.
 */
export function AgentCapability({ agent }: { agent: Pick<Agent, 'capabilities'> }) {
  const { t } = useAgentsT();
  const c = agent.capabilities;
  if (!c.reason) {
    return (
      <Text size="xs" c="teal.8" data-testid="agent-capability">
        {t('admin.trainsAndExports', { device: c.device.toUpperCase() })}
      </Text>
    );
  }
  return (
    <Text size="xs" c={c.export ? 'orange.8' : 'red.8'} data-testid="agent-capability">
      {c.reason}
    </Text>
  );
}
