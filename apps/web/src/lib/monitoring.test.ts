import { describe, expect, it, vi } from 'vitest';
import { monitoringStarted, startMonitoring } from './monitoring';

describe('web error monitoring', () => {
  it('loads and initialises nothing without a DSN, then the SDK with the spec sample rate and the scrubber', async () => {
    const init = vi.fn();
    const load = vi.fn(async () => ({ init, browserTracingIntegration: () => ({ name: 'BrowserTracing' }), captureException: vi.fn() }) as never);
    expect(await startMonitoring(null, load)).toBe(false);
    expect(await startMonitoring(undefined, load)).toBe(false);
    expect(load).not.toHaveBeenCalled();
    expect(monitoringStarted()).toBe(false);

    expect(await startMonitoring({ dsn: 'http://key@127.0.0.1:9/1', tracesSampleRate: 0.3, environment: 'staging', release: 'v1' }, load)).toBe(true);
    expect(load).toHaveBeenCalledTimes(1);
    const options = init.mock.calls[0]![0];
    expect(options).toMatchObject({ dsn: 'http://key@127.0.0.1:9/1', tracesSampleRate: 0.3, sendDefaultPii: false });
    const event = options.beforeSend({
      request: { url: 'https://x/datasets?api_key=abc&page=1', headers: { Authorization: 'Bearer ul_0123456789abcdef', cookie: 'sl_session=s' } },
      message: 'failed with key ul_0123456789abcdef',
    });
    expect(event.request.url).toBe('https://x/datasets?api_key=[scrubbed]&page=1');
    expect(event.request.headers).toEqual({ Authorization: '[scrubbed]', cookie: '[scrubbed]' });
    expect(event.message).toBe('failed with key [scrubbed]');
    // Once started it stays started (one SDK per page).
    await startMonitoring({ dsn: 'http://other@127.0.0.1:9/2', tracesSampleRate: 0.3, environment: 'x', release: 'y' }, load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(monitoringStarted()).toBe(true);
  });
});
