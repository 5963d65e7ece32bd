import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { makeUser, renderRoutes } from '../test/render';
import { Sidebar } from './sidebar';

const renderSidebar = (user = makeUser(), collapsed = false) =>
  renderRoutes(
    [
      {
        path: '*',
        element: (
          <Sidebar
            user={user}
            collapsed={collapsed}
            canToggle
            onToggle={() => undefined}
            version="v0.1.85-rc.1"
            environment="staging"
            onFeedback={() => undefined}
            onSignOut={() => undefined}
          />
        ),
      },
    ],
    { path: '/datasets', user },
  );

describe('sidebar', () => {
  it('lists the sections, the settings entry with name and plan, and the version label', () => {
    renderSidebar();
    for (const name of ['Home', 'Datasets', 'Projects', 'Models', 'Integrations', 'Support', 'Trash']) {
      expect(screen.getByRole('link', { name })).toBeInTheDocument();
    }
    expect(screen.queryByRole('link', { name: 'Admin' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Datasets' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByTestId('sidebar-name')).toHaveTextContent('ada');
    expect(screen.getByTestId('sidebar-plan')).toHaveTextContent('Free');
    expect(screen.getByTestId('version-label')).toHaveTextContent('v0.1.85-rc.1 · staging');
    expect(screen.getByRole('img', { name: /Profile image of ada/ })).toHaveAttribute('src', expect.stringMatching(/^\/robots\/robot-\d\.svg$/));
  });

  it('shows Admin to admins only', () => {
    renderSidebar(makeUser({ roles: ['admin'] }));
    expect(screen.getByRole('link', { name: 'Admin' })).toBeInTheDocument();
  });

  it('falls back to first name, then email, for the settings entry', () => {
    renderSidebar(makeUser({ username: '', firstName: 'Grace' }));
    expect(screen.getByTestId('sidebar-name')).toHaveTextContent('Grace');
  });

  it('keeps labelled icon links when collapsed', () => {
    renderSidebar(makeUser(), true);
    expect(screen.getByRole('link', { name: 'Models' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Expand sidebar' })).toBeInTheDocument();
  });
});
