import { Button, Divider, SimpleGrid } from '@mantine/core';
import { IconBrandApple, IconBrandGithub, IconBrandGoogle, IconKey } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { useRemoteConfig } from '../../../lib/remote-config';

const ICONS = { google: IconBrandGoogle, github: IconBrandGithub, apple: IconBrandApple, oidc: IconKey };

/** One button per provider the server enables (GET /v1/config `providers`); each starts the OAuth redirect. */
export function SocialButtons() {
  const { config } = useRemoteConfig();
  const { t } = useTranslation('auth');
  if (!config.providers.length) return null;
  return (
    <>
      <Divider label={t('orContinueWith')} labelPosition="center" />
      <SimpleGrid cols={config.providers.length > 1 ? 2 : 1} spacing="sm">
        {config.providers.map((p) => {
          const Icon = ICONS[p.kind] ?? IconKey;
          return (
            <Button
              key={p.id}
              component="a"
              href={`/v1/auth/oauth/${encodeURIComponent(p.id)}`}
              variant="default"
              leftSection={<Icon size={18} aria-hidden />}
              data-testid={`provider-${p.id}`}
            >
              {t('continueWith', { name: p.name })}
            </Button>
          );
        })}
      </SimpleGrid>
    </>
  );
}
