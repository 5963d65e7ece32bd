import { useEffect, useState } from 'react';
import { ActionIcon, Box, Group } from '@mantine/core';
import { useLocalStorage, useMediaQuery } from '@mantine/hooks';
import { IconMessageStar } from '@tabler/icons-react';
import { BREAKPOINT_DESKTOP, BREAKPOINT_MOBILE } from '@sightline/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation, useNavigate, useSearchParams } from 'react-router';
import { ConnectivityBanner } from '../components/connectivity-banner';
import { Logo } from '../components/logo';
import { UserAvatar } from '../components/user-avatar';
import { signOut, useMe } from '../lib/auth';
import { notifications } from '../lib/notifications';
import { realtime } from '../lib/realtime';
import { bindRealtime } from '../lib/realtime-bridge';
import { useRemoteConfig } from '../lib/remote-config';
import { startup } from '../lib/startup';
import { FeedbackDialog } from '../features/feedback/components/feedback-dialog';
import { ActiveJobsLink } from '../features/jobs';
import { NotificationBell } from '../features/notifications';
import { SearchLauncher } from '../features/search';
import { useTeamsRealtime } from '../features/teams';
import { MailLinksWarning } from './mail-links-warning';
import { MobileMenu } from './mobile-menu';
import { Sidebar } from './sidebar';
import { StartupProgress } from './startup-progress';
import { startupLoaders } from './startup-loaders';
import classes from './layout-authenticated.module.css';

export const SIDEBAR_COLLAPSED_KEY = 'sightline.sidebar.collapsed';

/** Authenticated layout: sidebar, startup progress bar, feedback button, version label (spec §2). */
export function AuthenticatedLayout() {
  const { user } = useMe();
  const { config } = useRemoteConfig();
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const location = useLocation();
  const navigate = useNavigate();
  useTeamsRealtime();
  const [params, setParams] = useSearchParams();
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const [collapsedPref, setCollapsed] = useLocalStorage<boolean>({ key: SIDEBAR_COLLAPSED_KEY, defaultValue: false, getInitialValueInEffect: false });
  const mobile = useMediaQuery(`(max-width: ${BREAKPOINT_MOBILE}px)`, false, { getInitialValueInEffect: false });
  const desktop = useMediaQuery(`(min-width: ${BREAKPOINT_DESKTOP}px)`, true, { getInitialValueInEffect: false });
  const collapsed = !desktop || collapsedPref;
  const uid = user?.id;

  // Startup: lists by priority, the section of the current URL first.
  useEffect(() => {
    void startup.run(location.pathname, startupLoaders(queryClient));
    // Only once per sign-in; later navigation does not reorder.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [queryClient]);

  useEffect(() => {
    if (!uid) return;
    return bindRealtime(realtime, queryClient, uid);
  }, [uid, queryClient]);

  // OAuth lands on /home?auth=signup-successful|signin-successful.
  useEffect(() => {
    const result = params.get('auth');
    if (!result) return;
    notifications.success(t(result === 'signup-successful' ? 'auth.signedUp' : 'auth.signedIn'));
    const next = new URLSearchParams(params);
    next.delete('auth');
    setParams(next, { replace: true });
  }, [params, setParams, t]);

  if (!user) return null;

  const doSignOut = async () => {
    await signOut(queryClient).catch(() => undefined);
    startup.reset();
    navigate('/signin');
  };

  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skip}>
        {t('nav.skip')}
      </a>
      <StartupProgress />
      {!mobile && (
        <div className={classes.sidebarColumn}>
          <Sidebar
            user={user}
            collapsed={collapsed}
            canToggle={desktop}
            onToggle={() => setCollapsed((c) => !c)}
            version={config.version}
            environment={config.environment}
            onFeedback={() => setFeedbackOpen(true)}
            onSignOut={doSignOut}
          />
        </div>
      )}
      <div className={classes.content}>
        <ConnectivityBanner />
        {mobile && (
          <header className={classes.mobileHeader}>
            <Group justify="space-between" wrap="nowrap">
              <Link to="/home" aria-label={t('nav.homeLogo')} style={{ textDecoration: 'none' }}>
                <Logo size={24} color="white" />
              </Link>
              <Group gap="xs" wrap="nowrap">
                <ActiveJobsLink compact />
                <SearchLauncher compact color="gray.3" />
                <NotificationBell color="gray.3" />
                <ActionIcon variant="subtle" color="gray.3" onClick={() => setFeedbackOpen(true)} aria-label={t('feedback.button')}>
                  <IconMessageStar size={20} />
                </ActionIcon>
                <Link to="/settings" aria-label={t('nav.settings')}>
                  <UserAvatar user={user} size={30} />
                </Link>
              </Group>
            </Group>
          </header>
        )}
        {!mobile && (
          <header className={classes.topBar}>
            <Group gap="sm" wrap="nowrap">
              <ActiveJobsLink />
              <SearchLauncher />
              <NotificationBell />
            </Group>
          </header>
        )}
        <Box component="main" id="main" className={classes.main} data-mobile={mobile || undefined}>
          <MailLinksWarning />
          <Outlet />
        </Box>
        {mobile && (
          <Box component="footer" ta="center" pb={80} c="dimmed" fz="xs" data-testid="version-label">
            {config.version} · {config.environment}
          </Box>
        )}
      </div>
      {mobile && <MobileMenu user={user} onSignOut={doSignOut} onFeedback={() => setFeedbackOpen(true)} />}
      <FeedbackDialog opened={feedbackOpen} onClose={() => setFeedbackOpen(false)} user={user} />
    </div>
  );
}
