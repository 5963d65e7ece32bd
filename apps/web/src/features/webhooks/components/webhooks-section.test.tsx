import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Webhook } from '@sightline/contracts';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import { WebhooksSection } from '../index';

afterEach(() => vi.unstubAllGlobals());

const hook = (over: Partial<Webhook> = {}): Webhook => ({
  id: 'wh1',
  url: 'https://ci.example.com/hooks',
  description: null,
  events: ['model.deleted'],
  scope: 'own',
  active: true,
  created: '2026-11-25T00:00:00.000Z',
  updated: '2026-11-25T00:00:00.000Z',
  owner: { id: 'AbCdEfGhIjKlMnOpQrSt', username: 'ada' },
  lastDelivery: null,
  ...over,
});

const delivery = {
  id: 'd1',
  webhookId: 'wh1',
  event: 'model.deleted',
  eventId: 'evt_1',
  status: 'failed',
  attempts: 8,
  statusCode: 500,
  responseMs: 42,
  error: 'HTTP 500',
  created: '2026-11-25T00:00:00.000Z',
  lastAttemptAt: '2026-11-25T01:00:00.000Z',
  nextAttemptAt: null,
  redeliveryOf: null,
  payload: {},
  attemptLog: [],
};

describe('webhooks section (Settings)', () => {
  it('adds a webhook, shows its secret once, lists deliveries with code and time, redelivers', async () => {
    const list: Webhook[] = [];
    const api = fakeApi({
      'GET /v1/webhooks': () => list,
      'POST /v1/webhooks': (body) => {
        const created = hook({ ...(body as Partial<Webhook>), id: 'wh1' });
        list.push(created);
        return { ...created, secret: 'whsec_shown_once_0123456789' };
      },
      // Keyset pages, newest first (ADR 0042): d1, then the older d0 after its cursor.
      'GET /v1/webhooks/wh1/deliveries': (_b: unknown, url: string) =>
        new URL(url, 'http://x').searchParams.get('cursor') === 'after-d1'
          ? { items: [{ ...delivery, id: 'd0', status: 'succeeded', statusCode: 204, error: null }], nextCursor: null }
          : { items: [delivery], nextCursor: 'after-d1' },
      'POST /v1/webhooks/wh1/deliveries/d1/redeliver': () => ({ id: 'd2' }),
    });
    vi.stubGlobal('fetch', api.fetch);
    renderRoutes([{ path: '/', element: <WebhooksSection /> }], { user: makeUser() });
    expect(await screen.findByText('No webhooks yet.')).toBeInTheDocument();
    // Instance-wide webhooks are offered to admins only.
    expect(screen.queryByLabelText(/Instance-wide/)).toBeNull();

    await userEvent.type(screen.getByLabelText(/Payload URL/), 'https://ci.example.com/hooks');
    await userEvent.click(screen.getByLabelText('Model deleted'));
    await userEvent.click(screen.getByRole('button', { name: 'Add webhook' }));
    const post = api.calls.find((c) => c.method === 'POST' && c.path === '/v1/webhooks')!;
    expect(post.body).toEqual({
      url: 'https://ci.example.com/hooks',
      events: ['training.completed', 'training.failed', 'model.deleted'],
      description: null,
      scope: 'own',
    });
    expect(await screen.findByTestId('webhook-secret')).toHaveTextContent('whsec_shown_once_0123456789');
    await userEvent.click(screen.getByRole('button', { name: 'I have stored it' }));
    await waitFor(() => expect(screen.queryByTestId('webhook-secret')).toBeNull());
    const card = await screen.findByTestId('webhook-card');
    expect(card).not.toHaveTextContent('whsec_');

    await userEvent.click(within(card).getByRole('button', { name: 'Deliveries' }));
    const row = await within(card).findByTestId('webhook-delivery');
    expect(row).toHaveTextContent('Failed');
    expect(row).toHaveTextContent('500');
    expect(row).toHaveTextContent('42 ms');
    await userEvent.click(within(row).getByRole('button', { name: 'Redeliver' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path === '/v1/webhooks/wh1/deliveries/d1/redeliver')).toBe(true));
    // Older deliveries come by the cursor of the page before, on request.
    await userEvent.click(within(card).getByTestId('deliveries-load-more'));
    await waitFor(() => expect(within(card).getAllByTestId('webhook-delivery')).toHaveLength(2));
    expect(within(card).getAllByTestId('webhook-delivery')[1]).toHaveTextContent('204');
    expect(within(card).queryByTestId('deliveries-load-more')).toBeNull();
  }, 20_000); // typing is slow on a loaded 2-core runner
});
