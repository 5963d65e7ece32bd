import { useState, type FormEvent } from 'react';
import { Badge, Button, Grid, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { ErrorCode, Messages, emailSchema, passwordSchema, usernameSchema, firstNameSchema, type User } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ImageDropzone } from '../../../components/image-dropzone';
import { UserAvatar } from '../../../components/user-avatar';
import { isApiError } from '../../../lib/api-client';
import { errorMessage } from '../../../lib/i18n';
import { notifications } from '../../../lib/notifications';
import { useUpdateProfile } from '../api/update-profile';
import { useUpdateEmail } from '../api/update-email';
import { useResendVerification } from '../api/resend-verification';
import { useRemoteConfig } from '../../../lib/remote-config';
import { notifyError } from '../../../lib/notify-error';
import { useUpdatePassword } from '../api/update-password';
import { useUploadProfileImage } from '../api/upload-profile-image';
import { useDeleteAccount } from '../api/delete-account';
import { AppearanceSection } from './appearance-section';
import { SectionCard } from '../../../components/section-card';

const firstIssue = (result: { success: boolean; error?: { issues: { message: string }[] } }) => (result.success ? undefined : result.error?.issues[0]?.message);
const codeMessage = (error: unknown) => (isApiError(error) ? errorMessage(error.code, error.message) : Messages.unableUpdateUser);

function ImageSection({ user }: { user: User }) {
  const { t } = useTranslation('settings');
  const upload = useUploadProfileImage();
  return (
    <SectionCard title={t('profile.image.title')} description={t('profile.image.description')}>
      <Group align="center" wrap="nowrap" gap="lg">
        <UserAvatar user={user} size={88} />
        <div style={{ flex: 1 }}>
          <ImageDropzone
            loading={upload.isPending}
            onImage={(file) =>
              upload.mutate(file, {
                onSuccess: () => notifications.success(t('profile.image.saved')),
                onError: (error) => notifications.error(codeMessage(error)),
              })
            }
          />
        </div>
      </Group>
    </SectionCard>
  );
}

function DetailsSection({ user }: { user: User }) {
  const { t } = useTranslation('settings');
  const update = useUpdateProfile();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName ?? '');
  const [username, setUsername] = useState(user.username);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const changed = firstName.trim() !== user.firstName || lastName.trim() !== (user.lastName ?? '') || username.trim() !== user.username;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = { firstName: firstIssue(firstNameSchema.safeParse(firstName)), username: firstIssue(usernameSchema.safeParse(username)) };
    setErrors(found);
    if (found.firstName || found.username) return;
    update.mutate(
      { firstName: firstName.trim(), lastName: lastName.trim() || null, username: username.trim() },
      {
        onSuccess: () => notifications.success(t('profile.details.saved')),
        onError: (error) => {
          if (isApiError(error, ErrorCode.UsernameInUse)) setErrors({ username: errorMessage(error.code) });
          else notifications.error(Messages.unableUpdateUser);
        },
      },
    );
  };

  return (
    <SectionCard title={t('profile.details.title')} description={t('profile.details.description')}>
      <form onSubmit={onSubmit} noValidate aria-label={t('profile.details.title')}>
        <Stack>
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('profile.details.firstName')}
                autoComplete="given-name"
                value={firstName}
                onChange={(e) => setFirstName(e.currentTarget.value)}
                error={errors.firstName}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('profile.details.lastName')}
                autoComplete="family-name"
                value={lastName}
                onChange={(e) => setLastName(e.currentTarget.value)}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <TextInput
                label={t('profile.details.username')}
                autoComplete="username"
                value={username}
                onChange={(e) => setUsername(e.currentTarget.value)}
                error={errors.username}
              />
            </Grid.Col>
          </Grid>
          <Group justify="flex-end">
            <Button type="submit" disabled={!changed} loading={update.isPending}>
              {t('save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}

function EmailSection({ user }: { user: User }) {
  const { t } = useTranslation('settings');
  const update = useUpdateEmail();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string | undefined> = { email: firstIssue(emailSchema.safeParse(email)) };
    // Spec §5: the change is attempted only when the email differs from the current one.
    if (!found.email && email.trim().toLowerCase() === user.email.toLowerCase()) found.email = errorMessage(ErrorCode.SameEmail);
    if (!password) found.password = t('profile.email.passwordRequired');
    setErrors(found);
    if (found.email || found.password) return;
    update.mutate(
      { email: email.trim(), password },
      {
        onSuccess: () => {
          notifications.success(t('profile.email.saved'));
          setEmail('');
          setPassword('');
        },
        onError: (error) => {
          if (isApiError(error, ErrorCode.WrongPassword)) setErrors({ password: errorMessage(error.code) });
          else if (isApiError(error, ErrorCode.InUse) || isApiError(error, ErrorCode.SameEmail)) setErrors({ email: errorMessage(error.code) });
          else notifications.error(codeMessage(error));
        },
      },
    );
  };

  return (
    <SectionCard
      title={t('profile.email.title')}
      description={
        <>
          {t('profile.email.current')} <strong>{user.email}</strong>{' '}
          {user.emailVerified ? (
            <Badge size="xs" color="#1f7a35" variant="filled">
              {t('profile.email.verified')}
            </Badge>
          ) : (
            <>
              <Badge size="xs" color="#8a5a00" variant="filled">
                {t('profile.email.unverified')}
              </Badge>{' '}
              <VerifyAction email={user.email} />
            </>
          )}
        </>
      }
    >
      <form onSubmit={onSubmit} noValidate aria-label={t('profile.email.title')}>
        <Stack>
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('profile.email.new')}
                type="email"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.currentTarget.value)}
                error={errors.email}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <PasswordInput
                label={t('profile.email.password')}
                autoComplete="current-password"
                value={password}
                onChange={(e) => setPassword(e.currentTarget.value)}
                error={errors.password}
              />
            </Grid.Col>
          </Grid>
          <Group justify="flex-end">
            <Button type="submit" variant="light" disabled={!email} loading={update.isPending}>
              {t('profile.email.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}

/** Not verified: a way to get the link again, or, on a server that sends no mail, why none is needed. */
function VerifyAction({ email }: { email: string }) {
  const { t } = useTranslation('settings');
  const { config } = useRemoteConfig();
  const resend = useResendVerification();
  if (!config.mail.enabled)
    return (
      <Text span size="xs">
        {t('profile.email.noMail')}
      </Text>
    );
  return (
    <Button
      size="compact-xs"
      variant="subtle"
      loading={resend.isPending}
      data-testid="resend-verification"
      onClick={() => resend.mutate(email, { onSuccess: () => notifications.success(t('profile.email.resent', { email })), onError: notifyError })}
    >
      {t('profile.email.resend')}
    </Button>
  );
}

function PasswordSection() {
  const { t } = useTranslation('settings');
  const update = useUpdatePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found: Record<string, string | undefined> = {
      current: current ? undefined : t('profile.password.currentRequired'),
      next: firstIssue(passwordSchema.safeParse(next)),
      confirm: next === confirm ? undefined : t('profile.password.mismatch'),
    };
    setErrors(found);
    if (found.current || found.next || found.confirm) return;
    update.mutate(
      { currentPassword: current, newPassword: next },
      {
        onSuccess: () => {
          notifications.success(t('profile.password.saved'));
          setCurrent('');
          setNext('');
          setConfirm('');
        },
        onError: (error) => {
          if (isApiError(error, ErrorCode.WrongPassword)) setErrors({ current: errorMessage(error.code) });
          else if (isApiError(error, ErrorCode.WeakPassword)) setErrors({ next: errorMessage(error.code) });
          else notifications.error(codeMessage(error));
        },
      },
    );
  };

  return (
    <SectionCard title={t('profile.password.title')} description={t('profile.password.description')}>
      <form onSubmit={onSubmit} noValidate aria-label={t('profile.password.title')}>
        <Stack>
          <PasswordInput
            label={t('profile.password.current')}
            autoComplete="current-password"
            value={current}
            onChange={(e) => setCurrent(e.currentTarget.value)}
            error={errors.current}
          />
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <PasswordInput
                label={t('profile.password.new')}
                autoComplete="new-password"
                value={next}
                onChange={(e) => setNext(e.currentTarget.value)}
                error={errors.next}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <PasswordInput
                label={t('profile.password.confirm')}
                autoComplete="new-password"
                value={confirm}
                onChange={(e) => setConfirm(e.currentTarget.value)}
                error={errors.confirm}
              />
            </Grid.Col>
          </Grid>
          <Group justify="flex-end">
            <Button type="submit" variant="light" disabled={!current || !next} loading={update.isPending}>
              {t('profile.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </SectionCard>
  );
}

function DangerSection() {
  const { t } = useTranslation('settings');
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const remove = useDeleteAccount();
  const navigate = useNavigate();
  return (
    <SectionCard title={t('profile.delete.title')} description={t('profile.delete.description')} danger>
      <Group>
        <Button color="var(--mantine-color-error)" variant="outline" onClick={() => setOpen(true)}>
          {t('profile.delete.button')}
        </Button>
      </Group>
      <Modal opened={open} onClose={() => setOpen(false)} title={t('profile.delete.confirmTitle')} centered>
        <Stack>
          <Text size="sm">{t('profile.delete.confirmBody')}</Text>
          <PasswordInput
            label={t('profile.delete.password')}
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={isApiError(remove.error) ? errorMessage(remove.error.code, remove.error.message) : undefined}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              {t('cancel')}
            </Button>
            <Button
              color="red"
              loading={remove.isPending}
              disabled={!password}
              onClick={() => remove.mutate(password, { onSuccess: () => navigate('/signin') })}
            >
              {t('profile.delete.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </SectionCard>
  );
}

export function ProfileTab({ user }: { user: User }) {
  return (
    <Stack gap="lg">
      <ImageSection user={user} />
      <AppearanceSection />
      <DetailsSection key={`${user.firstName}|${user.lastName}|${user.username}`} user={user} />
      <EmailSection user={user} />
      <PasswordSection />
      <DangerSection />
    </Stack>
  );
}
