import { Box, Paper, Stack, Text, Title, List, ThemeIcon, Anchor } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Logo } from '../../../components/logo';
import classes from './auth-shell.module.css';

/** Split screen of the auth pages: brand panel on the left (hidden on small screens), form on the right. */
export function AuthShell({ title, subtitle, children, footer }: { title: ReactNode; subtitle?: ReactNode; children: ReactNode; footer?: ReactNode }) {
  const { t } = useTranslation('auth');
  return (
    <div className={classes.shell}>
      <aside className={classes.brand} aria-label={t('brand.label')}>
        <Anchor component={Link} to="/auth" underline="never" c="white" aria-label={t('brand.home')}>
          <Logo color="white" />
        </Anchor>
        <Stack gap="lg" maw={420}>
          <Title order={2} c="white" fz={34} lh={1.15}>
            {t('brand.headline')}
          </Title>
          <Text c="night.0" size="lg">
            {t('brand.body')}
          </Text>
          <List
            spacing="sm"
            c="night.0"
            icon={
              <ThemeIcon size={22} radius="xl" color="brand.5">
                <IconCheck size={14} />
              </ThemeIcon>
            }
          >
            <List.Item>{t('brand.point1')}</List.Item>
            <List.Item>{t('brand.point2')}</List.Item>
            <List.Item>{t('brand.point3')}</List.Item>
          </List>
        </Stack>
        <Text size="xs" c="night.1">
          {t('brand.footer')}
        </Text>
      </aside>
      <main className={classes.main}>
        <Box className={classes.mobileLogo}>
          <Logo />
        </Box>
        <Paper className={classes.card} p={{ base: 'lg', sm: 36 }} radius="lg" withBorder shadow="sm">
          <Stack gap="lg">
            <Stack gap={6}>
              <Title order={1} fz={26}>
                {title}
              </Title>
              {subtitle && <Text c="dimmed">{subtitle}</Text>}
            </Stack>
            {children}
          </Stack>
        </Paper>
        {footer && <Box mt="lg">{footer}</Box>}
      </main>
    </div>
  );
}
