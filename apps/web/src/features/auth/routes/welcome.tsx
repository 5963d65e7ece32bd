import { Button, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconDatabase, IconFolders, IconCube } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useMe } from '../../../lib/auth';
import { useCompleteOnboarding } from '../api/complete-onboarding';

/** /welcome takes an email (as ?email=) and greets a new account. */
export default function WelcomePage({ email: emailProp }: { email?: string }) {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const { user } = useMe();
  const navigate = useNavigate();
  const onboard = useCompleteOnboarding();
  const email = emailProp ?? params.get('email') ?? user?.email ?? '';

  const finish = (to = '/home') => onboard.mutate(undefined, { onSettled: () => navigate(to) });

  const steps = [
    { icon: IconDatabase, title: t('welcome.step1.title'), body: t('welcome.step1.body'), to: '/datasets?create=1', key: 'dataset' },
    { icon: IconFolders, title: t('welcome.step2.title'), body: t('welcome.step2.body'), to: '/projects?create=1', key: 'project' },
    { icon: IconCube, title: t('welcome.step3.title'), body: t('welcome.step3.body'), to: '/models?train=1', key: 'model' },
  ];

  return (
    <Stack gap="xl" maw={880}>
      <Stack gap={6}>
        <Title order={1}>{t('welcome.title', { name: user?.firstName || user?.username || '' })}</Title>
        <Text c="dimmed" data-testid="welcome-email">
          {t('welcome.subtitle', { email })}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {/* Each card is the first step it names: it opens that dialog (and ends the welcome). */}
        {steps.map(({ icon: Icon, title, body, to, key }) => (
          <Paper
            key={title}
            withBorder
            p="lg"
            radius="md"
            component="button"
            type="button"
            onClick={() => finish(to)}
            data-testid={`welcome-${key}`}
            style={{ textAlign: 'left', cursor: 'pointer', font: 'inherit', color: 'inherit' }}
          >
            <ThemeIcon size={40} radius="md" variant="light" mb="sm">
              <Icon size={22} aria-hidden />
            </ThemeIcon>
            <Text fw={600}>{title}</Text>
            <Text size="sm" c="dimmed">
              {body}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>
      <Group>
        <Button size="md" onClick={() => finish()} loading={onboard.isPending}>
          {t('welcome.continue')}
        </Button>
      </Group>
    </Stack>
  );
}
