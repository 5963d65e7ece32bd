import { fireEvent, render, screen } from '@testing-library/react';
import { LOGO_LOAD_WARNING_MS } from '@sightline/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLogLevel } from './logger';
import { useLogoLoadWarning } from './logo-load';

function Logo({ src }: { src: string }) {
  const watch = useLogoLoadWarning(src, 'team logo');
  return <img src={src} alt="logo" {...watch} />;
}

describe('the logo-load warning (spec §9: 1000 ms)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    setLogLevel('warn');
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('warns once when a logo has not loaded after LOGO_LOAD_WARNING_MS, never before', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<Logo src="/v1/blobs/users/u/teams/t?sig=secret" />);
    vi.advanceTimersByTime(LOGO_LOAD_WARNING_MS - 1);
    expect(warn).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(LOGO_LOAD_WARNING_MS).toBe(1000);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]!.join(' ')).toContain('team logo not loaded after 1000 ms /v1/blobs/users/u/teams/t');
    // The signed part of the link stays out of logs.
    expect(warn.mock.calls[0]!.join(' ')).not.toContain('secret');
  });

  it('stays quiet for a logo that loads in time', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<Logo src="/logo.png" />);
    vi.advanceTimersByTime(400);
    fireEvent.load(screen.getByAltText('logo'));
    vi.advanceTimersByTime(2000);
    expect(warn).not.toHaveBeenCalled();
  });
});
