import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { COLOR_SCHEME_KEY } from '../../../app/theme';
import { makeUser, renderRoutes } from '../../../test/render';
import { AppearanceSection } from './appearance-section';

describe('Appearance (dark theme)', () => {
  it('follows the system by default; Dark switches the page and is remembered in this browser', async () => {
    renderRoutes([{ path: '/', element: <AppearanceSection /> }], { user: makeUser() });
    expect(screen.getByRole('radio', { name: 'System' })).toBeChecked();
    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'));
    expect(localStorage.getItem(COLOR_SCHEME_KEY)).toBe('dark');
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light'));
    expect(localStorage.getItem(COLOR_SCHEME_KEY)).toBe('light');
  });
});
