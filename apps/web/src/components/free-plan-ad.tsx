import { Button, Paper, Stack, Text, ThemeIcon, Group } from '@mantine/core';
import { IconRocket } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

/** Free users see an advertisement (spec §1) leading to the plan comparison, which says what this server really offers (ADR 0030). */
export function FreePlanAd({ compact = false }: { compact?: boolean }) {
  const { t } = useTranslation();
  if (compact) {
    return (
      <Button
        component={Link}
        to="/plans"
        size="xs"
        variant="gradient"
        gradient={{ from: 'brand.7', to: 'violet.7' }}
        leftSection={<IconRocket size={14} />}
        fullWidth
      >
        {t('ad.button')}
      </Button>
    );
  }
  return (
    <Paper withBorder p="md" radius="md" data-testid="free-plan-ad">
      <Group align="flex-start" wrap="nowrap">
        <ThemeIcon size={38} radius="md" variant="light" color="violet">
          <IconRocket size={22} />
        </ThemeIcon>
        <Stack gap={6} style={{ flex: 1 }}>
          <Text fw={600}>{t('ad.title')}</Text>
          <Text size="sm" c="dimmed">
            {t('ad.body')}
          </Text>
          <div>
            <Button component={Link} to="/plans" size="xs" variant="gradient" gradient={{ from: 'brand.7', to: 'violet.7' }}>
              {t('ad.button')}
            </Button>
          </div>
        </Stack>
      </Group>
    </Paper>
  );
}
