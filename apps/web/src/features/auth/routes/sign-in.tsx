import { useEffect, useState, type FormEvent } from 'react';
import { Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { ErrorCode } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../../lib/api-client';
import { savedInvite, signOut } from '../../../lib/auth';
import { notifications } from '../../../lib/notifications';
import { AuthErrorAlert } from '../components/auth-error-alert';
import { AuthShell } from '../components/auth-shell';
import { InviteNotice } from '../components/invite-notice';
import { useInvitePreview } from '../api/get-invite-preview';
import { SocialButtons } from '../components/social-buttons';
import { useSignIn } from '../api/sign-in';
import { useResendVerification } from '../api/resend-verification';

export default function SignInPage() {
  const { t } = useTranslation('auth');
  const [params, setParams] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const signIn = useSignIn();
  const resend = useResendVerification();
  const queryClient = useQueryClient();
  const oauthError = params.get('error');
  const [invite] = useState(savedInvite);
  const preview = useInvitePreview(invite);

  // The verification link lands here with ?verified=1.
  useEffect(() => {
    if (params.get('verified') === '1') {
      notifications.success(t('verified'));
      const next = new URLSearchParams(params);
      next.delete('verified');
      setParams(next, { replace: true });
    }
  }, [params, setParams, t]);

  // Spec §4: a deleted account gets the alert and is signed out.
  useEffect(() => {
    if (isApiError(signIn.error, ErrorCode.AccountDeleted)) void signOut(queryClient).catch(() => undefined);
  }, [signIn.error, queryClient]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // Light checks only (the server validates): the sign-in page stays free of the schema library.
    const found: Record<string, string> = {};
    if (!/^[^\s@]+@[^\s@]+$/.test(email.trim())) found.email = t('fields.emailInvalid');
    if (!password) found.password = t('fields.passwordRequired');
    setErrors(found);
    if (Object.keys(found).length) return;
    resend.reset();
    signIn.mutate({ email, password });
  };

  const notVerified = isApiError(signIn.error, ErrorCode.EmailNotVerified);

  return (
    <AuthShell
      title={t('signIn.title')}
      subtitle={t('signIn.subtitle')}
      footer={
        <Text size="sm" c="dimmed" ta="center">
          {t('signIn.noAccount')}{' '}
          <Anchor component={Link} to="/signup" fw={600}>
            {t('signIn.toSignUp')}
          </Anchor>
        </Text>
      }
    >
      {invite && <InviteNotice preview={preview.data} gone={preview.isError} mode="signIn" />}
      {oauthError && !signIn.error && <AuthErrorAlert error={oauthError} />}
      <form onSubmit={onSubmit} noValidate aria-label={t('signIn.title')}>
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
          <PasswordInput
            label={t('fields.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={errors.password}
            required
          />
          <Group justify="flex-end" mt={-6}>
            <Anchor component={Link} to="/request-password" size="sm">
              {t('signIn.forgot')}
            </Anchor>
          </Group>
          <AuthErrorAlert error={signIn.error}>
            {notVerified && (
              <Group mt="xs">
                <Button size="xs" variant="white" color="red" loading={resend.isPending} disabled={resend.isSuccess} onClick={() => resend.mutate(email)}>
                  {resend.isSuccess ? t('verification.sent') : t('verification.resend')}
                </Button>
              </Group>
            )}
          </AuthErrorAlert>
          <Button type="submit" loading={signIn.isPending} fullWidth size="md">
            {t('signIn.submit')}
          </Button>
        </Stack>
      </form>
      <SocialButtons />
    </AuthShell>
  );
}
