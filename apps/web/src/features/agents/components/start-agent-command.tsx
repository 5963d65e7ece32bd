import { useState } from 'react';
import { Button, Code, Stack, Text } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { notifyError } from '../../../lib/notify-error';
import { useCreateAgent } from '../api/create-agent';
import { useAgentsT } from '../i18n';

/** The command that starts an agent for this server with a token (run from the Sightline folder; docs/deploy.md §5). */
export function agentCommand(origin: string, token: string) {
  return `node apps/agent/bin/sightline-agent.mjs --hub ${origin} --token ${token}`;
}

/**
 * One click: creates a private agent token (the caller's own jobs) and shows the full command that
 * starts an agent with it. The token is shown once.
 */
export function StartAgentCommand() {
  const { t } = useAgentsT();
  const create = useCreateAgent();
  const [token, setToken] = useState<string | null>(null);
  if (token) {
    return (
      <Stack gap={4} data-testid="start-agent-command">
        <Text size="sm">{t('start.run')}</Text>
        <Code block>{agentCommand(window.location.origin, token)}</Code>
        <Text size="xs" c="dimmed">
          {t('admin.tokenOnce')}
        </Text>
      </Stack>
    );
  }
  return (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconKey size={14} />}
      loading={create.isPending}
      data-testid="start-agent-button"
      onClick={() => create.mutate({ name: t('start.name'), shared: false }, { onSuccess: (res) => setToken(res.token), onError: notifyError })}
      style={{ alignSelf: 'flex-start' }}
    >
      {t('start.button')}
    </Button>
  );
}
