import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { isInIframe } from '../../../lib/iframe';

/** /403: also where framed pages land (spec §2). */
export default function ForbiddenPage() {
  const { t } = useTranslation('pages');
  const framed = isInIframe();
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm" ta="center" maw={480}>
        <Text fz={72} fw={800} c="var(--mantine-color-anchor)" lh={1}>
          403
        </Text>
        <Title order={1} fz={26}>
          {t('forbidden.title')}
        </Title>
        <Text c="dimmed">{framed ? t('forbidden.iframe') : t('forbidden.body')}</Text>
        {framed ? (
          <Button component="a" href={window.location.origin} target="_blank" rel="noopener noreferrer">
            {t('forbidden.openApp')}
          </Button>
        ) : (
          <Button component="a" href="/home">
            {t('forbidden.home')}
          </Button>
        )}
      </Stack>
    </Center>
  );
}
