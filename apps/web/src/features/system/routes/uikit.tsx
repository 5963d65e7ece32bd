import { Badge, Button, Container, Divider, Group, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconDatabase } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CardPlaceholders } from '../../../components/card-placeholders';
import { EmptyState } from '../../../components/empty-state';
import { FileSize } from '../../../components/file-size';
import { FreePlanAd } from '../../../components/free-plan-ad';
import { ImageDropzone } from '../../../components/image-dropzone';
import { Logo } from '../../../components/logo';
import { NotificationToast } from '../../../components/notification-area';
import { PrivacyBadge } from '../../../components/privacy-badge';
import { UserAvatar } from '../../../components/user-avatar';
import { notifications, type ActiveNotification } from '../../../lib/notifications';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Title order={2} fz="lg" mb="md">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

const sample = (type: ActiveNotification['type'], message: string, extra: Partial<ActiveNotification> = {}): ActiveNotification => ({
  id: `sample-${type}`,
  type,
  message,
  close: true,
  createdAt: 0,
  timeout: 4000,
  remaining: 2600,
  paused: false,
  ...extra,
});

/** /uikit: the shared components in one place. */
export default function UikitPage() {
  const { t } = useTranslation('pages');
  const robots = ['a@example.com', 'b@example.com', 'c@example.com', 'd@example.com', 'e@example.com', 'f@example.com'];
  return (
    <Container size="lg" py="md" component="main">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={1}>{t('uikit.title')}</Title>
          <Text c="dimmed">{t('uikit.description')}</Text>
        </Stack>
        <Section title={t('uikit.brand')}>
          <Group gap="xl">
            <Logo />
            <Logo withText={false} size={40} />
          </Group>
        </Section>
        <Section title={t('uikit.notifications')}>
          <Stack gap="sm" maw={430}>
            <NotificationToast notification={sample('success', 'Model uploaded successfully.')} onNavigate={() => undefined} />
            <NotificationToast notification={sample('error', 'Unable to Update Model')} onNavigate={() => undefined} />
            <NotificationToast
              notification={sample('pending', 'Checking available storage', { timeout: 10000, remaining: 7000 })}
              onNavigate={() => undefined}
            />
            <NotificationToast notification={sample('success', 'Model Updated', { link: { text: 'Open', path: '/models' } })} onNavigate={() => undefined} />
          </Stack>
          <Divider my="md" />
          <Group>
            <Button color="#1f7a35" onClick={() => notifications.success(t('uikit.sampleSuccess'))}>
              {t('uikit.showSuccess')}
            </Button>
            <Button color="#c02626" onClick={() => notifications.error(t('uikit.sampleError'))}>
              {t('uikit.showError')}
            </Button>
            <Button color="#1f2a45" onClick={() => notifications.pending(t('uikit.samplePending'))}>
              {t('uikit.showPending')}
            </Button>
            <Button variant="default" onClick={() => notifications.success(t('uikit.sampleLink'), { link: { text: t('uikit.open'), path: '/notifications' } })}>
              {t('uikit.showLink')}
            </Button>
          </Group>
        </Section>
        <Section title={t('uikit.avatars')}>
          <Group>
            {robots.map((email) => (
              <UserAvatar key={email} user={{ email, image: '', username: email.split('@')[0], firstName: '' }} size="lg" />
            ))}
          </Group>
        </Section>
        <Section title={t('uikit.badges')}>
          <Group>
            <PrivacyBadge privacy="private" />
            <PrivacyBadge privacy="public" />
            <PrivacyBadge privacy="unlisted" />
            <Badge color="violet">pro</Badge>
            <Text size="sm">
              <FileSize bytes={0} /> · <FileSize bytes={1536} /> · <FileSize bytes={5.2 * 1024 ** 3} /> · <FileSize bytes={3 * 1024 ** 8} />
            </Text>
          </Group>
        </Section>
        <Section title={t('uikit.forms')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t('uikit.sampleInput')} placeholder="yolo11n" />
            <TextInput label={t('uikit.sampleInvalid')} error={t('uikit.sampleInvalidError')} defaultValue="?" />
          </SimpleGrid>
          <Group mt="md">
            <Button>{t('uikit.primary')}</Button>
            <Button variant="light">{t('uikit.light')}</Button>
            <Button variant="default">{t('uikit.default')}</Button>
            <Button color="var(--mantine-color-error)" variant="outline">
              {t('uikit.danger')}
            </Button>
          </Group>
        </Section>
        <Section title={t('uikit.dropzone')}>
          <ImageDropzone onImage={(file) => notifications.success(file.name)} />
        </Section>
        <Section title={t('uikit.empty')}>
          <EmptyState icon={<IconDatabase size={28} />} title={t('datasets.emptyTitle')} description={t('datasets.emptyBody')} />
        </Section>
        <Section title={t('uikit.ad')}>
          <FreePlanAd />
        </Section>
        <Section title={t('uikit.placeholders')}>
          <CardPlaceholders count={3} />
        </Section>
      </Stack>
    </Container>
  );
}
