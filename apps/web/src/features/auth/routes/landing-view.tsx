import { Button, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { AuthShell } from '../components/auth-shell';

/** /auth: the landing view with the two ways in. */
export default function LandingViewPage() {
  const { t } = useTranslation('auth');
  return (
    <AuthShell title={t('landing.title')} subtitle={t('landing.subtitle')}>
      <Stack gap="sm">
        <Button component={Link} to="/signup" size="md">
          {t('landing.signUp')}
        </Button>
        <Button component={Link} to="/signin" size="md" variant="default">
          {t('landing.signIn')}
        </Button>
        <Text size="xs" c="dimmed" ta="center">
          {t('landing.note')}
        </Text>
      </Stack>
    </AuthShell>
  );
}
