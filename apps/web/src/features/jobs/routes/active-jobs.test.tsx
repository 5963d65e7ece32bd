import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActiveJobs, RoboflowImport } from '@sightline/contracts';
import { fakeApi } from '../../../lib/test-factories';
import { makeUser, renderRoutes } from '../../../test/render';
import ActiveJobsPage from './active-jobs';

const noJobs: ActiveJobs = { uploads: [], processing: [] };
const rfImport = (over: Partial<RoboflowImport> = {}): RoboflowImport => ({
  id: 'imp1',
  project: 'acme/shapes-4ckfl',
  version: 2,
  status: 'downloading',
  progress: { phase: 'download', done: 5 * 1024 * 1024, total: 20 * 1024 * 1024 },
  error: null,
  dataset: null,
  dates: { created: '2026-11-25T10:00:00.000Z', updated: '2026-11-25T10:00:05.000Z', finished: null },
  ...over,
});

describe('/active-jobs', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('lists a Roboflow import in flight with its progress, and cancels it; handed-over and finished imports are not listed', async () => {
    let imports = [
      rfImport(),
      rfImport({ id: 'imp2', version: 1, status: 'imported', progress: null, dataset: { id: 'd1', status: 'Ready', name: 'shapes' } }),
      rfImport({ id: 'imp3', version: 3, status: 'failed', progress: null, error: { code: 'roboflow/export-timeout', message: 'Roboflow did not finish the export' } }),
    ];
    const api = fakeApi({
      'GET /v1/active-jobs': () => noJobs,
      'GET /v1/integrations/roboflow/imports': () => imports,
      'POST /v1/integrations/roboflow/imports/imp1/cancel': () => {
        imports = imports.map((i) => (i.id === 'imp1' ? { ...i, status: 'cancelled' as const, progress: null } : i));
        return imports[0];
      },
    });
    vi.stubGlobal('fetch', vi.fn(api.fetch));
    renderRoutes([{ path: '/active-jobs', element: <ActiveJobsPage /> }], { path: '/active-jobs', user: makeUser() });

    const section = await screen.findByTestId('roboflow-imports');
    const cards = within(section).getAllByTestId('job-import');
    expect(cards).toHaveLength(1);
    expect(cards[0]).toHaveTextContent('shapes-4ckfl · version 2');
    expect(cards[0]).toHaveTextContent('Roboflow import from acme');
    expect(cards[0]).toHaveTextContent('5.0 MB / 20.0 MB');
    expect(within(cards[0]!).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25');
    await userEvent.click(within(cards[0]!).getByRole('button', { name: /cancel/i }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'POST' && c.path === '/v1/integrations/roboflow/imports/imp1/cancel')).toBe(true));
    // Cancelled: nothing is in flight any more, so the page says so.
    expect(await screen.findByText('No active jobs')).toBeInTheDocument();
    expect(screen.queryByTestId('roboflow-imports')).toBeNull();
  });
});
