import { screen, waitFor } from '@testing-library/react';
import { PLAN_LIMITS, PLANS } from '@sightline/contracts';
import { cleanup } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RouteObject } from 'react-router';
import { renderRoutes, makeUser } from '../test/render';
import { getRedirect } from '../lib/auth';
import { AuthGuard, GuestGuard, IframeGuard, ProGuard } from './guards';

const page = (text: string) => <div>{text}</div>;

function table(inIframe = () => false): RouteObject[] {
  return [
    {
      element: <IframeGuard inIframe={inIframe} />,
      children: [
        { path: '/signin', element: <GuestGuard>{page('sign-in page')}</GuestGuard> },
        { path: '/signup', element: <GuestGuard>{page('sign-up page')}</GuestGuard> },
        { path: '/home', element: <AuthGuard>{page('home page')}</AuthGuard> },
        { path: '/models', element: <AuthGuard>{page('models page')}</AuthGuard> },
        {
          path: '/pro',
          element: (
            <AuthGuard>
              <ProGuard>{page('pro page')}</ProGuard>
            </AuthGuard>
          ),
        },
        { path: '/403', element: page('forbidden page') },
      ],
    },
  ];
}

describe('auth guard', () => {
  it('sends a signed-out user to /signin and remembers the target path with its query', async () => {
    const { router } = renderRoutes(table(), { path: '/models?sort=name', user: null });
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/signin');
    expect(getRedirect()).toBe('/models?sort=name');
  });

  it('keeps the first remembered path while it is not /home', async () => {
    sessionStorage.setItem('sightline.redirect', '/models?first=1');
    renderRoutes(table(), { path: '/home', user: null });
    await screen.findByText('sign-in page');
    expect(getRedirect()).toBe('/models?first=1');
  });

  it('does not remember sign-in or sign-up as the redirect', async () => {
    renderRoutes(table(), { path: '/signup', user: null });
    await screen.findByText('sign-up page');
    expect(getRedirect()).toBe('/home');
  });

  it('lets a signed-in user through', async () => {
    renderRoutes(table(), { path: '/models', user: makeUser() });
    expect(await screen.findByText('models page')).toBeInTheDocument();
  });
});

describe('guest guard', () => {
  it('sends a signed-in user to /home', async () => {
    const { router } = renderRoutes(table(), { path: '/signin', user: makeUser() });
    expect(await screen.findByText('home page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/home');
  });

  it('sends a signed-in user to the saved path once, then resets it', async () => {
    sessionStorage.setItem('sightline.redirect', '/models?sort=name');
    const { router } = renderRoutes(table(), { path: '/signin', user: makeUser() });
    expect(await screen.findByText('models page')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?sort=name');
    expect(getRedirect()).toBe('/home');
  });

  it('shows guest pages to signed-out users', async () => {
    renderRoutes(table(), { path: '/signin', user: null });
    expect(await screen.findByText('sign-in page')).toBeInTheDocument();
  });
});

describe('pro guard', () => {
  it('sends a user whose plan is not pro to /home', async () => {
    const { router } = renderRoutes(table(), { path: '/pro', user: makeUser({ plan: 'free' }) });
    await screen.findByText('home page');
    expect(router.state.location.pathname).toBe('/home');
  });

  it('lets pro users in', async () => {
    renderRoutes(table(), { path: '/pro', user: makeUser({ plan: 'pro' }) });
    expect(await screen.findByText('pro page')).toBeInTheDocument();
  });

  it('lets enterprise users in (enterprise has everything pro has)', async () => {
    renderRoutes(table(), { path: '/pro', user: makeUser({ plan: 'enterprise' }) });
    expect(await screen.findByText('pro page')).toBeInTheDocument();
  });

  // Consistency (docs/spec-mapping.md, "pro guard"): the guard admits exactly the plans whose limits
  // grant the pro features it guards (the wallet's top-up, teams), so it cannot drift from the plans.
  it('admits exactly the plans that the plan matrix gives the pro features', async () => {
    for (const plan of PLANS) {
      const granted = PLAN_LIMITS[plan].walletTopUp && PLAN_LIMITS[plan].teams && PLAN_LIMITS[plan].cloudTraining;
      const { router } = renderRoutes(table(), { path: '/pro', user: makeUser({ plan }) });
      await screen.findByText(granted ? 'pro page' : 'home page');
      expect(router.state.location.pathname, plan).toBe(granted ? '/pro' : '/home');
      cleanup();
    }
    expect(PLANS.filter((plan) => PLAN_LIMITS[plan].walletTopUp)).toEqual(['pro', 'enterprise']);
  });
});

describe('iframe guard', () => {
  it('redirects every page to /403 inside an iframe', async () => {
    const { router } = renderRoutes(
      table(() => true),
      { path: '/signin', user: null },
    );
    expect(await screen.findByText('forbidden page')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/403'));
  });

  it('allows /403 itself inside an iframe', async () => {
    renderRoutes(
      table(() => true),
      { path: '/403', user: makeUser() },
    );
    expect(await screen.findByText('forbidden page')).toBeInTheDocument();
  });

  it('does nothing outside an iframe', async () => {
    renderRoutes(
      table(() => false),
      { path: '/home', user: makeUser() },
    );
    expect(await screen.findByText('home page')).toBeInTheDocument();
  });
});
