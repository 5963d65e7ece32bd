import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconCube, IconDatabasePlus, IconFolderPlus, IconKey, type Icon } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FreePlanAd } from '../../../components/free-plan-ad';
import { useMe } from '../../../lib/auth';
import { PendingInvitesBanner } from '../../notifications';
import { RecentCard, SearchBox } from '../../search';
import classes from './home.module.css';

interface QuickAction {
  to: string;
  icon: Icon;
  color: string;
  key: 'dataset' | 'project' | 'model' | 'apiKey';
}
const ACTIONS: QuickAction[] = [
  { to: '/datasets?create=1', icon: IconDatabasePlus, color: 'teal', key: 'dataset' },
  { to: '/projects?create=1', icon: IconFolderPlus, color: 'brand', key: 'project' },
  { to: '/models?train=1', icon: IconCube, color: 'violet', key: 'model' },
  { to: '/settings?tab=api-keys', icon: IconKey, color: 'orange', key: 'apiKey' },
];

export default function HomePage() {
  const { t } = useTranslation('pages');
  const { user } = useMe();
  return (
    <Stack gap="xl">
      <Stack gap={4}>
        <Title order={1} fz={28}>
          {t('home.greeting', { name: user?.firstName || user?.username || '' })}
        </Title>
        <Text c="dimmed">{t('home.subtitle')}</Text>
      </Stack>
      <PendingInvitesBanner />
      {user?.plan === 'free' && <FreePlanAd />}
      <section aria-labelledby="quick-actions">
        <Title order={2} fz="lg" mb="sm" id="quick-actions">
          {t('home.quickActions')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, lg: 4 }}>
          {ACTIONS.map(({ to, icon: Icon, color, key }) => (
            <UnstyledButton key={key} component={Link} to={to} className={classes.action} data-testid={`quick-${key}`}>
              <Card withBorder radius="md" p="lg" h="100%">
                <Group wrap="nowrap" align="flex-start">
                  <ThemeIcon size={42} radius="md" variant="light" color={color}>
                    <Icon size={22} aria-hidden />
                  </ThemeIcon>
                  <div>
                    <Text fw={600}>{t(`home.actions.${key}.title`)}</Text>
                    <Text size="sm" c="dimmed">
                      {t(`home.actions.${key}.body`)}
                    </Text>
                  </div>
                </Group>
              </Card>
            </UnstyledButton>
          ))}
        </SimpleGrid>
      </section>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <section aria-labelledby="recent-items" data-testid="home-recent">
          <Title order={2} fz="lg" mb="sm" id="recent-items">
            {t('home.recent')}
          </Title>
          <RecentCard limit={6} />
        </section>
        <section aria-labelledby="home-search">
          <Title order={2} fz="lg" mb="sm" id="home-search">
            {t('home.search')}
          </Title>
          <SearchBox testId="home-search-box" />
        </section>
      </SimpleGrid>
    </Stack>
  );
}
