import { useState } from 'react';
import { Alert, Code } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { MailLinks } from '@sightline/contracts';
import { useTranslation } from 'react-i18next';
import { api } from '../lib/api-client';
import { isAdmin, useMe } from '../lib/auth';

const DISMISSED_KEY = 'sightline.mail-links-warning.dismissed';

/**
 * For admins (ADR 0018): links in mails (reset, verification, invites) that point at a loopback
 * address only open on this computer; say so, and how to fix it (PUBLIC_URL). Dismissed for the session.
 */
export function MailLinksWarning() {
  const { t } = useTranslation();
  const { user } = useMe();
  const admin = isAdmin(user);
  const [dismissed, setDismissed] = useState(() => sessionStorage.getItem(DISMISSED_KEY) === '1');
  const links = useQuery({
    queryKey: ['mail-links'],
    queryFn: ({ signal }) => api.get<MailLinks>('/v1/auth/mail-links', signal),
    enabled: admin && !dismissed,
    staleTime: Infinity,
    retry: false,
  });
  if (!admin || dismissed || !links.data?.loopback) return null;
  return (
    <Alert
      color="orange"
      variant="light"
      icon={<IconMailExclamation size={18} aria-hidden />}
      title={t('mailLinks.title')}
      withCloseButton
      closeButtonLabel={t('mailLinks.dismiss')}
      onClose={() => {
        sessionStorage.setItem(DISMISSED_KEY, '1');
        setDismissed(true);
      }}
      mb="lg"
      styles={{ title: { color: 'var(--mantine-color-text)' } }}
      data-testid="mail-links-warning"
    >
      {t('mailLinks.body')}
      <Code>{links.data.base}</Code>. {t(links.data.source === 'PUBLIC_URL' ? 'mailLinks.fixPublicUrl' : 'mailLinks.fixUnset')}
    </Alert>
  );
}
