import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppProviders } from './providers';
import { StartupProgress } from './startup-progress';

const none = { team: false, dataset: false, project: false, model: false };
const all = { team: true, dataset: true, project: true, model: true };

describe('<StartupProgress>', () => {
  afterEach(() => vi.useRealTimers());

  it('shows until the four sections are initialized, then hides 1 s later', () => {
    vi.useFakeTimers();
    const { rerender } = render(
      <AppProviders>
        <StartupProgress state={none} />
      </AppProviders>,
    );
    expect(screen.getByTestId('startup-progress')).toBeInTheDocument();
    rerender(
      <AppProviders>
        <StartupProgress state={{ ...none, team: true, dataset: true }} />
      </AppProviders>,
    );
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50');
    rerender(
      <AppProviders>
        <StartupProgress state={all} />
      </AppProviders>,
    );
    act(() => vi.advanceTimersByTime(999));
    expect(screen.getByTestId('startup-progress')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByTestId('startup-progress')).not.toBeInTheDocument();
  });
});
