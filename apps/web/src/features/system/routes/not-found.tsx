import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export default function NotFoundPage() {
  const { t } = useTranslation('pages');
  return (
    <Center mih="60vh">
      <Stack align="center" gap="sm" ta="center" maw={480} data-testid="not-found">
        <Text fz={72} fw={800} c="var(--mantine-color-anchor)" lh={1}>
          404
        </Text>
        <Title order={1} fz={26}>
          {t('notFound.title')}
        </Title>
        <Text c="dimmed">{t('notFound.body')}</Text>
        <Button component={Link} to="/home">
          {t('notFound.home')}
        </Button>
      </Stack>
    </Center>
  );
}
