import { render } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import type { User } from '@sightline/contracts';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { AppProviders } from '../app/providers';
import { meQueryKey } from '../lib/auth';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'AbCdEfGhIjKlMnOpQrSt',
    uid: 'AbCdEfGhIjKlMnOpQrSt',
    username: 'ada',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    emailVerified: true,
    image: '',
    plan: 'free',
    roles: [],
    paymentCustomerId: null,
    usage: {},
    wallet: { balance: 0 },
    onboard: true,
    feedback: null,
    providers: ['password'],
    dates: { created: '2026-01-01T00:00:00.000Z', deleted: null, lastLogin: null },
    ...overrides,
  };
}

export function testQueryClient(user: User | null | undefined) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity }, mutations: { retry: false } } });
  if (user !== undefined) client.setQueryData(meQueryKey, user);
  client.setQueryData(['config'], {
    flags: { cloudTraining: false, teamsCollaboration: true, walletTopUp: false, dedicatedInference: false },
    version: 'v0.1.85-rc.1',
    environment: 'staging',
    providers: [],
    mail: { enabled: false, verificationRequired: false },
  });
  return client;
}

/** Renders routes in a memory router with the app's providers; `user` seeds the ['me'] query. */
export function renderRoutes(routes: RouteObject[], { path = '/', user }: { path?: string; user?: User | null } = {}) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = testQueryClient(user);
  const utils = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...utils, router, queryClient };
}
