import { ActionIcon, Badge, Box, Button, Group, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import {
  IconCompass,
  IconDatabase,
  IconFolders,
  IconCube,
  IconHome,
  IconLayoutSidebarLeftCollapse,
  IconLayoutSidebarLeftExpand,
  IconLifebuoy,
  IconLogout,
  IconMessageStar,
  IconPlugConnected,
  IconShieldCog,
  IconTrash,
  type Icon,
} from '@tabler/icons-react';
import type { User } from '@sightline/contracts';
import type { ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { FreePlanAd } from '../components/free-plan-ad';
import { Logo } from '../components/logo';
import { UserAvatar } from '../components/user-avatar';
import { displayName, isAdmin } from '../lib/auth';
import classes from './sidebar.module.css';

export interface NavItem {
  key: string;
  to: string;
  icon: Icon;
  /** Also active on these path prefixes. */
  match?: string[];
}

export function sidebarItems(user: Pick<User, 'roles'>): NavItem[] {
  const items: NavItem[] = [
    { key: 'home', to: '/home', icon: IconHome },
    { key: 'datasets', to: '/datasets', icon: IconDatabase },
    { key: 'projects', to: '/projects', icon: IconFolders },
    { key: 'models', to: '/models', icon: IconCube },
    { key: 'explore', to: '/explore', icon: IconCompass },
    { key: 'integrations', to: '/settings?tab=integrations', icon: IconPlugConnected, match: ['/integrations'] },
    { key: 'support', to: '/support', icon: IconLifebuoy },
    { key: 'trash', to: '/trash', icon: IconTrash },
  ];
  if (isAdmin(user)) items.push({ key: 'admin', to: '/admin', icon: IconShieldCog });
  return items;
}

function useIsActive() {
  const location = useLocation();
  return (item: NavItem) => {
    const [path, query] = item.to.split('?');
    if (item.match?.some((p) => location.pathname.startsWith(p))) return true;
    if (query) return location.pathname === path && location.search.includes(query);
    return location.pathname === path || location.pathname.startsWith(`${path}/`);
  };
}

export function Sidebar({
  user,
  collapsed,
  onToggle,
  canToggle,
  version,
  environment,
  onFeedback,
  onSignOut,
}: {
  user: User;
  collapsed: boolean;
  onToggle: () => void;
  canToggle: boolean;
  version: string;
  environment: string;
  onFeedback: () => void;
  onSignOut: () => void;
}) {
  const { t } = useTranslation();
  const isActive = useIsActive();
  const location = useLocation();
  const settingsActive = location.pathname === '/settings' && !location.search.includes('tab=integrations');

  const withTip = (label: string, node: ReactElement) =>
    collapsed ? (
      <Tooltip label={label} position="right" withArrow>
        {node}
      </Tooltip>
    ) : (
      node
    );

  return (
    <nav className={classes.sidebar} data-collapsed={collapsed || undefined} aria-label={t('nav.main')} data-testid="sidebar">
      <Group justify={collapsed ? 'center' : 'space-between'} className={classes.top} wrap="nowrap">
        <NavLink to="/home" className={classes.brand} aria-label={t('nav.homeLogo')}>
          <Logo withText={!collapsed} color="white" />
        </NavLink>
        {canToggle && !collapsed && (
          <ActionIcon variant="subtle" color="gray.4" onClick={onToggle} aria-label={t('nav.collapse')} aria-expanded="true">
            <IconLayoutSidebarLeftCollapse size={20} />
          </ActionIcon>
        )}
      </Group>
      {canToggle && collapsed && (
        <Group justify="center" mb="xs">
          <ActionIcon variant="subtle" color="gray.4" onClick={onToggle} aria-label={t('nav.expand')} aria-expanded="false">
            <IconLayoutSidebarLeftExpand size={20} />
          </ActionIcon>
        </Group>
      )}
      <Stack gap={2} className={classes.links}>
        {sidebarItems(user).map((item) => {
          const label = t(`nav.${item.key}`);
          const active = isActive(item);
          return (
            <Box key={item.key}>
              {withTip(
                label,
                <NavLink
                  to={item.to}
                  className={classes.link}
                  data-active={active || undefined}
                  aria-current={active ? 'page' : undefined}
                  aria-label={collapsed ? label : undefined}
                  data-testid={`nav-${item.key}`}
                >
                  <item.icon size={20} stroke={1.7} aria-hidden className={classes.linkIcon} />
                  {!collapsed && <span>{label}</span>}
                </NavLink>,
              )}
            </Box>
          );
        })}
      </Stack>
      <Stack gap="xs" className={classes.bottom}>
        {user.plan === 'free' && !collapsed && <FreePlanAd compact />}
        {withTip(
          t('feedback.button'),
          collapsed ? (
            <ActionIcon variant="subtle" color="gray.3" size="lg" mx="auto" onClick={onFeedback} aria-label={t('feedback.button')}>
              <IconMessageStar size={20} />
            </ActionIcon>
          ) : (
            <Button
              variant="subtle"
              color="gray.3"
              justify="flex-start"
              leftSection={<IconMessageStar size={18} />}
              onClick={onFeedback}
              data-testid="feedback-button"
            >
              {t('feedback.button')}
            </Button>
          ),
        )}
        <Group gap={4} wrap="nowrap" className={classes.account} data-active={settingsActive || undefined}>
          {withTip(
            t('nav.settings'),
            <UnstyledButton
              component={NavLink}
              to="/settings"
              className={classes.settings}
              aria-label={collapsed ? t('nav.settings') : undefined}
              data-testid="nav-settings"
            >
              <UserAvatar user={user} size={34} />
              {!collapsed && (
                <Box style={{ minWidth: 0, flex: 1 }}>
                  <Text size="sm" fw={600} c="white" truncate data-testid="sidebar-name">
                    {displayName(user)}
                  </Text>
                  <Badge size="xs" variant="light" color={user.plan === 'free' ? 'gray' : 'violet'} data-testid="sidebar-plan">
                    {t(`plans.${user.plan}`)}
                  </Badge>
                </Box>
              )}
            </UnstyledButton>,
          )}
          {!collapsed && (
            <Tooltip label={t('nav.signOut')} withArrow>
              <ActionIcon variant="subtle" color="gray.4" onClick={onSignOut} aria-label={t('nav.signOut')}>
                <IconLogout size={18} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
        <Text size="xs" c="night.1" ta={collapsed ? 'center' : 'left'} px={collapsed ? 0 : 'xs'} data-testid="version-label">
          {collapsed ? version : `${version} · ${environment}`}
        </Text>
      </Stack>
    </nav>
  );
}
