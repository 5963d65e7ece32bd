import { useState } from 'react';
import { Alert, Button, Code, Group, TextInput } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useCreateAgent } from '../api/create-agent';
import { notifyError } from '../../../lib/notify-error';
import { useAgentsT } from '../i18n';
import { agentCommand } from './start-agent-command';

/**
 * Names a new agent and creates its token: shared (the admin's pool) or private (a user's own GPU).
 * The token is shown once, inside the command that starts the agent.
 */
export function NewAgentToken({
  shared,
  label,
  placeholder,
  testIds,
}: {
  shared: boolean;
  label: string;
  placeholder: string;
  testIds?: { name: string; create: string; token: string };
}) {
  const { t } = useAgentsT();
  const create = useCreateAgent();
  const [name, setName] = useState('');
  const [token, setToken] = useState<string | null>(null);
  return (
    <>
      <Group align="flex-end" gap="sm">
        <TextInput label={label} placeholder={placeholder} value={name} onChange={(e) => setName(e.currentTarget.value)} w={240} data-testid={testIds?.name} />
        <Button
          leftSection={<IconKey size={16} />}
          disabled={!name.trim()}
          loading={create.isPending}
          data-testid={testIds?.create}
          onClick={() =>
            create.mutate(
              { name: name.trim(), shared },
              {
                onSuccess: (res) => {
                  setToken(res.token);
                  setName('');
                },
                onError: notifyError,
              },
            )
          }
        >
          {t('admin.createToken')}
        </Button>
      </Group>
      {token && (
        <Alert color="teal" variant="light" withCloseButton onClose={() => setToken(null)} title={t('admin.tokenOnce')} data-testid={testIds?.token}>
          <Code block>{agentCommand(window.location.origin, token)}</Code>
        </Alert>
      )}
    </>
  );
}
