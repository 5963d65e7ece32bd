import { ActionIcon, Box, Code, CopyButton, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { TRAINING_NS } from '../lib/i18n-training';

/** Replaces every occurrence of the secrets by a mask that keeps the first characters. */
export function maskSecrets(code: string, secrets: Array<string | null | undefined>): string {
  let out = code;
  for (const secret of secrets) {
    if (!secret) continue;
    out = out.split(secret).join(`${secret.slice(0, 6)}${'•'.repeat(Math.max(4, secret.length - 6))}`);
  }
  return out;
}

/**
 * A copy-ready code block. Secrets in it are masked on screen until `revealed`; the copy button
 * always copies the real text, which is what the user runs.
 */
export function CodeSnippet({
  code,
  secrets = [],
  revealed = false,
  label,
  testId = 'code-snippet',
}: {
  code: string;
  secrets?: Array<string | null | undefined>;
  revealed?: boolean;
  label: string;
  testId?: string;
}) {
  const { t } = useTranslation(TRAINING_NS);
  const shown = revealed ? code : maskSecrets(code, secrets);
  return (
    <Box pos="relative">
      <Code block aria-label={label} data-testid={testId} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', paddingRight: 44 }}>
        {shown}
      </Code>
      <CopyButton value={code} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('snippet.copied') : t('snippet.copy')} withArrow position="left">
            <ActionIcon
              pos="absolute"
              top={6}
              right={6}
              variant="light"
              color={copied ? 'teal' : 'gray'}
              onClick={copy}
              aria-label={`${t('snippet.copy')}: ${label}`}
              data-copied={copied || undefined}
            >
              {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Box>
  );
}
