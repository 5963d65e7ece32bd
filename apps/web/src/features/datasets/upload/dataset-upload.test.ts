import { NOTIFICATION_RETRY_MS } from '@sightline/contracts';
import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '../../../lib/notifications';
import { processAfterUpload } from './dataset-upload';

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('retrying the processing of a dataset (spec §4 Retry, §9 retry notification 2000 ms)', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('offers a retry when /process fails, and the retry shows the 2 s retry notification', async () => {
    const fetchMock = vi.fn(async () => json(503, { error: { code: 'error/server-offline', message: 'down' } }));
    vi.stubGlobal('fetch', fetchMock);
    await processAfterUpload(new QueryClient(), 'ds1', 'Cats');
    const [failed] = notifications.store.getState().active;
    expect(failed).toMatchObject({ type: 'error', message: 'Cats is uploaded, but processing could not start.' });
    expect(failed!.callback?.text).toBe('Retry');

    fetchMock.mockImplementation(async () => json(202, { data: { id: 'ds1', status: 'Retrying', meta: { name: 'Cats' }, dates: {} } }));
    notifications.act(failed!.id, () => undefined);
    await vi.waitFor(() => expect(notifications.store.getState().active.some((n) => n.type === 'success')).toBe(true));
    const retrying = notifications.store.getState().active.find((n) => n.message === 'Retrying the processing of Cats…');
    expect(retrying).toMatchObject({ type: 'pending', timeout: NOTIFICATION_RETRY_MS });
    expect(NOTIFICATION_RETRY_MS).toBe(2000);
    expect(fetchMock).toHaveBeenLastCalledWith('/v1/datasets/ds1/process', expect.objectContaining({ method: 'POST' }));
  });
});
