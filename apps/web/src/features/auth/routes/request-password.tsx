import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, Stack, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { passwordRequestBody } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { fieldErrors } from '../../../lib/form';
import { AuthErrorAlert } from '../components/auth-error-alert';
import { AuthShell } from '../components/auth-shell';
import { useRequestPasswordReset } from '../api/request-password';

export default function RequestPasswordPage() {
  const { t } = useTranslation('auth');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const request = useRequestPasswordReset();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = fieldErrors(passwordRequestBody, { email });
    setErrors(found);
    if (!Object.keys(found).length) request.mutate(email);
  };

  return (
    <AuthShell title={t('request.title')} subtitle={t('request.subtitle')}>
      {request.isSuccess ? (
        <Alert color="green" icon={<IconMailCheck size={18} />} role="status" data-testid="request-sent">
          {t('request.sent', { email })}
        </Alert>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label={t('request.title')}>
          <Stack gap="md">
            <TextInput
              label={t('fields.email')}
              type="email"
              autoComplete="email"
              value={email}
              onChange={(e) => setEmail(e.currentTarget.value)}
              error={errors.email}
              required
            />
            <AuthErrorAlert error={request.error} />
            <Button type="submit" loading={request.isPending} fullWidth>
              {t('request.submit')}
            </Button>
          </Stack>
        </form>
      )}
      <Anchor component={Link} to="/signin" ta="center" size="sm">
        {t('backToSignIn')}
      </Anchor>
    </AuthShell>
  );
}
