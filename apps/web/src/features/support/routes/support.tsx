import { Anchor, Button, Code, CopyButton, Group, List, Paper, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconBook, IconBug, IconCheck, IconCopy, IconMail } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../../components/page-header';
import { useMe } from '../../../lib/auth';
import { useRemoteConfig } from '../../../lib/remote-config';
import { useSupportContact } from '../../../lib/support-contact';

/** The text a user pastes into a support request. */
export function environmentDetails(input: { version: string; environment: string; userAgent: string; userId: string | null }): string {
  return [`Version: ${input.version}`, `Environment: ${input.environment}`, `User agent: ${input.userAgent}`, `User id: ${input.userId ?? 'signed out'}`].join(
    '\n',
  );
}

export default function SupportPage() {
  const { t } = useTranslation('pages');
  const { config } = useRemoteConfig();
  const { user } = useMe();
  // The admin's contact address (an admin setting); signed-out visitors see the generic sentence.
  const contact = useSupportContact(Boolean(user)).data?.email ?? null;
  const details = environmentDetails({ version: config.version, environment: config.environment, userAgent: navigator.userAgent, userId: user?.id ?? null });

  const cards = [
    { icon: IconBook, title: t('support.docsTitle'), body: t('support.docsBody'), href: '/v1/docs', link: t('support.docsLink') },
    { icon: IconBug, title: t('support.bugTitle'), body: t('support.bugBody') },
    contact
      ? { icon: IconMail, title: t('support.contactTitle'), body: t('support.contactBody'), href: `mailto:${contact}`, link: contact }
      : { icon: IconMail, title: t('support.contactTitle'), body: user ? t('support.contactNone') : t('support.contactBody') },
  ];

  return (
    <Stack gap="lg" maw={960}>
      <PageHeader title={t('support.title')} description={t('support.description')} />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        {cards.map(({ icon: Icon, title, body, href, link }) => (
          <Paper key={title} withBorder p="lg" radius="md" style={{ minWidth: 0 }}>
            <ThemeIcon size={40} radius="md" variant="light" mb="sm">
              <Icon size={22} aria-hidden />
            </ThemeIcon>
            <Text fw={600}>{title}</Text>
            <Text size="sm" c="dimmed">
              {body}
            </Text>
            {href && (
              <Anchor
                href={href}
                size="sm"
                mt="xs"
                display="inline-block"
                style={{ overflowWrap: 'anywhere' }}
                data-testid={href.startsWith('mailto:') ? 'support-contact' : undefined}
              >
                {link}
              </Anchor>
            )}
          </Paper>
        ))}
      </SimpleGrid>
      <Paper withBorder p="lg" radius="md">
        <Group justify="space-between" mb="sm">
          <Title order={2} fz="lg">
            {t('support.envTitle')}
          </Title>
          <CopyButton value={details}>
            {({ copied, copy }) => (
              <Button
                onClick={copy}
                variant={copied ? 'light' : 'filled'}
                color={copied ? 'teal' : undefined}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              >
                {copied ? t('support.copied') : t('support.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
        <Code block tabIndex={0} data-testid="env-details">
          {details}
        </Code>
        <List size="sm" c="dimmed" mt="sm">
          <List.Item>{t('support.envHint')}</List.Item>
        </List>
      </Paper>
    </Stack>
  );
}
