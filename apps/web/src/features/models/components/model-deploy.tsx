import { ActionIcon, Anchor, Card, Code, CopyButton, Group, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import type { Model } from '@sightline/contracts';
import { Link } from 'react-router';
import { ModelFiles } from './model-files';
import { useModelsT } from '../i18n';

function CopyField({ label, value, testId }: { label: string; value: string; testId?: string }) {
  const { t } = useModelsT();
  return (
    <Group gap="xs" align="flex-end" wrap="nowrap">
      <TextInput style={{ flex: 1 }} label={label} value={value} readOnly ff="monospace" data-testid={testId} onFocus={(e) => e.currentTarget.select()} />
      <CopyButton value={value} timeout={2000}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? t('deploy.copied') : t('deploy.copy')} withArrow>
            <ActionIcon size={36} variant="light" color={copied ? 'teal' : 'gray'} onClick={copy} aria-label={`${t('deploy.copy')}: ${label}`}>
              {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}

/** Deploy tab: the files to download and the shared predict API of this server. */
export function ModelDeploy({ model, signedIn }: { model: Model; signedIn: boolean }) {
  const { t } = useModelsT();
  const url = `${window.location.origin}/v1/predict/${model.id}`;
  const curl = `curl -X POST "${url}" \\\n  -H "x-api-key: $API_KEY" \\\n  -F "file=@image.jpg" -F "imgsz=${model.imageSize ?? 640}" -F "conf=0.25" -F "iou=0.45"`;
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg" component="section" aria-label={t('deploy.apiTitle')}>
        <Stack gap="sm">
          <Title order={2} fz="md">
            {t('deploy.apiTitle')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('deploy.apiBody')}
          </Text>
          <CopyField label={t('deploy.url')} value={url} testId="predict-url" />
          <Text size="sm" fw={500}>
            {t('deploy.example')}
          </Text>
          <Code block>{curl}</Code>
          {signedIn && (
            <Text size="sm">
              <Anchor component={Link} to="/settings?tab=api-keys">
                {t('deploy.apiKeys')}
              </Anchor>
            </Text>
          )}
        </Stack>
      </Card>
      <Card withBorder radius="md" padding="lg" component="section" aria-label={t('files.title')}>
        <Title order={2} fz="md" mb="sm">
          {t('files.title')}
        </Title>
        <ModelFiles model={model} />
      </Card>
    </Stack>
  );
}
