import { Divider, Drawer, NavLink as MantineNavLink, Stack, UnstyledButton } from '@mantine/core';
import { IconActivity, IconBell, IconCube, IconDatabase, IconDots, IconFolders, IconLogout, IconMessageStar, IconSettings } from '@tabler/icons-react';
import type { User } from '@sightline/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useNavigate } from 'react-router';
import { sidebarItems, type NavItem } from './sidebar';
import classes from './mobile-menu.module.css';

const ITEMS = [
  { key: 'datasets', to: '/datasets', icon: IconDatabase },
  { key: 'projects', to: '/projects', icon: IconFolders },
  { key: 'models', to: '/models', icon: IconCube },
  { key: 'settings', to: '/settings', icon: IconSettings },
] as const;

const SHEET_STYLES = {
  content: { width: '100%', height: 'auto', flex: '0 0 auto', maxHeight: '85dvh', borderTopLeftRadius: 16, borderTopRightRadius: 16 },
} as const;

/**
 * Everything a desktop user reaches from the sidebar and header that the bottom bar has no room
 * for: the other sidebar destinations, Notifications, Active jobs, Feedback and Sign out.
 */
export function moreItems(user: Pick<User, 'roles'>): NavItem[] {
  const inBar = new Set<string>(ITEMS.map((i) => i.key));
  return [
    ...sidebarItems(user).filter((item) => !inBar.has(item.key)),
    { key: 'notifications', to: '/notifications', icon: IconBell },
    { key: 'activeJobs', to: '/active-jobs', icon: IconActivity },
  ];
}

/**
 * At widths of 641 px or less: Datasets, Projects, Models and Settings (spec §2), and a More sheet
 * that reaches every other page of the sidebar and header, Sign out included.
 */
export function MobileMenu({ user, onSignOut, onFeedback }: { user: User; onSignOut: () => void; onFeedback: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const go = (to: string) => {
    setOpen(false);
    void navigate(to);
  };
  return (
    <>
      <nav className={classes.menu} aria-label={t('nav.mobile')} data-testid="mobile-menu">
        {ITEMS.map(({ key, to, icon: Icon }) => (
          <NavLink key={key} to={to} className={classes.item}>
            <Icon size={22} stroke={1.7} aria-hidden />
            <span>{t(`nav.${key}`)}</span>
          </NavLink>
        ))}
        <UnstyledButton className={classes.item} onClick={() => setOpen(true)} aria-haspopup="dialog" aria-expanded={open} data-testid="mobile-more">
          <IconDots size={22} stroke={1.7} aria-hidden />
          <span>{t('nav.more')}</span>
        </UnstyledButton>
      </nav>
      {/* A sheet as tall as its items (Mantine's size="auto" would fill the screen), the page above it in sight. */}
      <Drawer opened={open} onClose={() => setOpen(false)} position="bottom" title={t('nav.more')} styles={SHEET_STYLES} data-testid="mobile-more-sheet">
        <Stack gap={2} pb="md">
          {moreItems(user).map((item) => (
            <MantineNavLink
              key={item.key}
              label={t(`nav.${item.key}`)}
              leftSection={<item.icon size={20} stroke={1.7} aria-hidden />}
              onClick={() => go(item.to)}
              data-testid={`more-${item.key}`}
            />
          ))}
          <MantineNavLink
            label={t('feedback.button')}
            leftSection={<IconMessageStar size={20} stroke={1.7} aria-hidden />}
            onClick={() => {
              setOpen(false);
              onFeedback();
            }}
          />
          <Divider my={4} />
          <MantineNavLink
            label={t('nav.signOut')}
            className={classes.signOut}
            leftSection={<IconLogout size={20} stroke={1.7} aria-hidden />}
            onClick={() => {
              setOpen(false);
              onSignOut();
            }}
            data-testid="more-sign-out"
          />
        </Stack>
      </Drawer>
    </>
  );
}
