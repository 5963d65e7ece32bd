import { useState, type FormEvent } from 'react';
import { Alert, Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { passwordSchema } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AuthErrorAlert } from '../components/auth-error-alert';
import { AuthShell } from '../components/auth-shell';
import { useResetPassword } from '../api/reset-password';

export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const reset = useResetPassword();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = passwordSchema.safeParse(password);
    const found: Record<string, string> = {};
    if (!parsed.success) found.password = parsed.error.issues[0]?.message ?? '';
    if (password !== confirm) found.confirm = t('reset.mismatch');
    setErrors(found);
    if (!Object.keys(found).length) reset.mutate({ token, password });
  };

  return (
    <AuthShell title={t('reset.title')} subtitle={t('reset.subtitle')}>
      {!token ? (
        <AuthErrorAlert error="auth/invalid-action-code" />
      ) : reset.isSuccess ? (
        <Stack>
          <Alert color="green" icon={<IconCircleCheck size={18} />} role="status" data-testid="reset-done">
            {t('reset.done')}
          </Alert>
          <Button component={Link} to="/signin">
            {t('reset.toSignIn')}
          </Button>
        </Stack>
      ) : (
        <form onSubmit={onSubmit} noValidate aria-label={t('reset.title')}>
          <Stack gap="md">
            <PasswordInput
              label={t('fields.newPassword')}
              description={t('fields.passwordHint')}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
              error={errors.password}
              required
            />
            <PasswordInput
              label={t('fields.confirmPassword')}
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => setConfirm(e.currentTarget.value)}
              error={errors.confirm}
              required
            />
            <AuthErrorAlert error={reset.error} />
            <Button type="submit" loading={reset.isPending} fullWidth>
              {t('reset.submit')}
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
