import { Button, Container, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { Logo } from '../components/logo';
import { PageLoader } from '../components/page-loader';
import { useMe } from '../lib/auth';
import { AuthenticatedLayout } from './layout-authenticated';
import classes from './layout-public.module.css';

/** Public layout: logo and a Sign up button to /signup when signed out and the path is not / (spec §2). */
export function PublicLayout() {
  const { user } = useMe();
  const { pathname } = useLocation();
  const { t } = useTranslation();
  return (
    <div className={classes.shell}>
      <header className={classes.header}>
        <Container size="lg">
          <Group justify="space-between" h={64}>
            <Link to="/" aria-label={t('nav.homeLogo')} className={classes.logo}>
              <Logo />
            </Link>
            {!user && pathname !== '/' && (
              <Group gap="sm">
                <Button component={Link} to="/signin" variant="subtle">
                  {t('nav.signIn')}
                </Button>
                <Button component={Link} to="/signup" data-testid="public-signup">
                  {t('nav.signUp')}
                </Button>
              </Group>
            )}
          </Group>
        </Container>
      </header>
      <Container size="lg" component="main" id="main" py="xl">
        <Outlet />
      </Container>
    </div>
  );
}

/** Pages open to everyone: the authenticated shell when signed in, else the public layout. */
export function AdaptiveLayout() {
  const { user, isPending } = useMe();
  if (isPending) return <PageLoader />;
  return user ? <AuthenticatedLayout /> : <PublicLayout />;
}
