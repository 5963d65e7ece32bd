import { Component, Suspense, type ReactNode } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { CHUNK_RELOAD_KEY, lazyPage } from './lazy-page';

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  render() {
    return this.state.error ? <div>failed: {this.state.error.message}</div> : this.props.children;
  }
}

const mount = (Page: ReturnType<typeof lazyPage>) =>
  render(
    <Boundary>
      <Suspense fallback={<div>loading</div>}>
        <Page />
      </Suspense>
    </Boundary>,
  );

describe('lazyPage', () => {
  it('renders the page once its chunk loads', async () => {
    const Page = lazyPage(async () => ({ default: () => <div>loaded page</div> }));
    mount(Page);
    expect(await screen.findByText('loaded page')).toBeInTheDocument();
  });

  it('reloads the target path once when the chunk fails, then shows the error instead of looping', async () => {
    window.history.pushState({}, '', '/models?x=1');
    const reload = vi.fn();
    const failing = () => Promise.reject(new Error('Failed to fetch dynamically imported module'));
    mount(lazyPage(failing, reload));
    await vi.waitFor(() => expect(reload).toHaveBeenCalledWith('/models?x=1'));
    expect(sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('/models?x=1');

    // After the reload the same chunk fails again: no second reload.
    const reloadAgain = vi.fn();
    mount(lazyPage(failing, reloadAgain));
    expect(await screen.findByText(/failed: Failed to fetch/)).toBeInTheDocument();
    expect(reloadAgain).not.toHaveBeenCalled();
  });
});
