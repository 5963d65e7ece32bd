import { useEffect, useState, type ChangeEvent, type FormEvent } from 'react';
import { Alert, Anchor, Button, PasswordInput, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Messages, signUpBody } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { savedInvite, setRedirect } from '../../../lib/auth';
import { fieldErrors } from '../../../lib/form';
import { AuthErrorAlert } from '../components/auth-error-alert';
import { AuthShell } from '../components/auth-shell';
import { InviteNotice } from '../components/invite-notice';
import { useInvitePreview } from '../api/get-invite-preview';
import { SocialButtons } from '../components/social-buttons';
import { useSignUp } from '../api/sign-up';
import { useResendVerification } from '../api/resend-verification';

const empty = { email: '', password: '', username: '', firstName: '' };

export default function SignUpPage() {
  const { t } = useTranslation('auth');
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const resend = useResendVerification();
  // Brought by a team invite link: the sign-up carries it, and the team page with Join comes next.
  const [invite] = useState(savedInvite);
  const preview = useInvitePreview(invite);
  const signUp = useSignUp({
    // A new account goes to the welcome page (which takes the email) through the guest guard's
    // redirect; one that came with an invite goes on to the team with the invite.
    onSignedIn: (result) => {
      if (!invite) setRedirect(`/welcome?email=${encodeURIComponent(result.user.email)}`);
    },
  });
  const invitedEmail = preview.data?.email;
  useEffect(() => {
    if (invitedEmail) setValues((v) => (v.email ? v : { ...v, email: invitedEmail }));
  }, [invitedEmail]);
  const set = (key: keyof typeof empty) => (e: ChangeEvent<HTMLInputElement>) => {
    // Read the value now: React clears currentTarget before a deferred state updater runs.
    const value = e.currentTarget.value;
    setValues((v) => ({ ...v, [key]: value }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = fieldErrors(signUpBody, values);
    setErrors(found);
    if (Object.keys(found).length) return;
    signUp.mutate(invite && preview.isSuccess ? { ...values, invite } : values);
  };

  if (signUp.data?.verificationRequired) {
    return (
      <AuthShell title={t('verification.title')} subtitle={t('verification.subtitle', { email: signUp.data.user.email })}>
        <Alert color="brand" icon={<IconMailCheck size={18} />} data-testid="check-email">
          {t('verification.body')}
        </Alert>
        <Button variant="light" loading={resend.isPending} disabled={resend.isSuccess} onClick={() => resend.mutate(signUp.data.user.email)}>
          {resend.isSuccess ? t('verification.sent') : t('verification.resend')}
        </Button>
        <AuthErrorAlert error={resend.error} />
        <Anchor component={Link} to="/signin" ta="center">
          {t('verification.toSignIn')}
        </Anchor>
      </AuthShell>
    );
  }

  return (
    <AuthShell
      title={t('signUp.title')}
      subtitle={t('signUp.subtitle')}
      footer={
        <Text size="sm" c="dimmed" ta="center">
          {t('signUp.haveAccount')}{' '}
          <Anchor component={Link} to="/signin" fw={600}>
            {t('signUp.toSignIn')}
          </Anchor>
        </Text>
      }
    >
      {invite && <InviteNotice preview={preview.data} gone={preview.isError} mode="signUp" />}
      <form onSubmit={onSubmit} noValidate aria-label={t('signUp.title')}>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
            <TextInput
              label={t('fields.firstName')}
              autoComplete="given-name"
              value={values.firstName}
              onChange={set('firstName')}
              error={errors.firstName}
              required
            />
            <TextInput
              label={t('fields.username')}
              autoComplete="username"
              value={values.username}
              onChange={set('username')}
              error={errors.username}
              required
            />
          </SimpleGrid>
          <TextInput label={t('fields.email')} type="email" autoComplete="email" value={values.email} onChange={set('email')} error={errors.email} required />
          <PasswordInput
            label={t('fields.password')}
            description={t('fields.passwordHint')}
            autoComplete="new-password"
            value={values.password}
            onChange={set('password')}
            error={errors.password}
            required
          />
          <AuthErrorAlert error={signUp.error} title={Messages.unableCreateUser} />
          <Button type="submit" loading={signUp.isPending} fullWidth size="md">
            {t('signUp.submit')}
          </Button>
        </Stack>
      </form>
      <SocialButtons />
    </AuthShell>
  );
}
