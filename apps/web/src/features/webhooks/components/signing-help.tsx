import { Stack, Text, Title } from '@mantine/core';
import { CodeSnippet } from '../../../components/code-snippet';
import { useWebhooksT } from '../i18n';

/** The verification recipe, as in docs/deploy.md. */
export const VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a string), secret: whsec_…
function verify(header, rawBody, secret) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=')));
  const t = Number(parts.t);
  if (!t || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex');
  return parts.v1?.length === expected.length && timingSafeEqual(Buffer.from(parts.v1), Buffer.from(expected));
}

// verify(req.headers['sightline-signature'], rawBody, process.env.SIGHTLINE_WEBHOOK_SECRET)`;

export function SigningHelp() {
  const { t } = useWebhooksT();
  return (
    <Stack gap="xs">
      <Title order={3} fz="md">
        {t('signing.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('signing.body')}
      </Text>
      <CodeSnippet code={VERIFY_SNIPPET} label={t('signing.example')} testId="webhook-verify-snippet" />
    </Stack>
  );
}
