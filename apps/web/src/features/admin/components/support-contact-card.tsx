import { Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { notifications } from '../../../lib/notifications';
import { notifyError } from '../../../lib/notify-error';
import { useSetSupportContact, useSupportContact } from '../../../lib/support-contact';
import { useAdminT } from '../i18n';

/** Admin overview: the contact address shown on Support's Contact card (ADR 0030). */
export function SupportContactCard() {
  const contact = useSupportContact();
  if (contact.isPending) return null;
  return <ContactForm key={contact.data?.email ?? ''} initial={contact.data?.email ?? ''} />;
}

function ContactForm({ initial }: { initial: string }) {
  const { t } = useAdminT();
  const save = useSetSupportContact();
  const [email, setEmail] = useState(initial);
  return (
    <Paper withBorder p="lg" radius="md" mt="lg" data-testid="admin-support-contact">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('contact.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('contact.description')}
        </Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <TextInput
            label={t('contact.label')}
            type="email"
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            w={320}
            maw="100%"
            placeholder="help@example.org"
          />
          <Button
            loading={save.isPending}
            disabled={email.trim() === initial}
            onClick={() => save.mutate(email.trim(), { onSuccess: () => notifications.success(t('contact.saved')), onError: notifyError })}
          >
            {t('contact.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
