import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Messages } from '@sightline/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { notifications } from '../../../lib/notifications';
import { makeUser, renderRoutes } from '../../../test/render';
import { buildTestZip, hubLayoutEntries, zipFile } from '../archive-check/test-zip';
import { CreateDatasetDialog } from './create-dataset-dialog';

const json = (data: unknown, status = 200) => new Response(JSON.stringify({ data }), { status });
const fail = (status: number, code: string, message: string, details?: unknown) =>
  new Response(JSON.stringify({ error: { code, message, details } }), { status });

const DATASET = { id: 'AbCdEfGhIjKlMnOpQrS1', meta: { name: 'shapes', description: '', privacy: 'private' }, status: 'Initiating' };

type Handler = (url: string, init?: RequestInit) => Response | undefined;
function stubApi(handler: Handler) {
  const calls: Array<{ method: string; url: string; body?: unknown }> = [];
  const fetchMock = vi.fn(async (url: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    calls.push({ method, url, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return handler(url, init) ?? json(null);
  });
  vi.stubGlobal('fetch', fetchMock);
  return calls;
}

function renderDialog() {
  const onClose = vi.fn();
  renderRoutes([{ path: '/datasets', element: <CreateDatasetDialog opened onClose={onClose} /> }], { path: '/datasets', user: makeUser() });
  return { onClose };
}

const fileInput = () => document.querySelector<HTMLInputElement>('input[type=file]')!;
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Create and upload' }));
const messages = () => notifications.store.getState().history.map((h) => h.message);

async function chooseGoodArchive() {
  await userEvent.upload(fileInput(), zipFile(buildTestZip(hubLayoutEntries()), 'shapes.zip'));
  expect(await screen.findByText('Ready to upload: every image can be used')).toBeInTheDocument();
  expect(screen.getByLabelText(/^Name/)).toHaveValue('shapes');
}

describe('create dataset dialog', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.reset();
  });

  it('requires an archive (NoArchiveProvided) before calling the server', async () => {
    const calls = stubApi((url) => (url === '/v1/users/me/storage' ? json({ limit: 100, used: 0, remaining: 100 }) : undefined));
    renderDialog();
    await userEvent.type(screen.getByLabelText(/^Name/), 'My dataset');
    submit();
    expect(await screen.findByTestId('file-error')).toHaveTextContent('Choose a dataset archive first.');
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('refuses a file that is not an archive', async () => {
    stubApi(() => undefined);
    renderDialog();
    await userEvent.upload(fileInput(), new File(['x'], 'photo.jpg', { type: 'image/jpeg' }), { applyAccept: false });
    expect(await screen.findByTestId('file-error')).toHaveTextContent('"photo.jpg" is not a .zip or .tar archive.');
  });

  it('catches a wrong layout in the browser and does not let it upload', async () => {
    const calls = stubApi(() => undefined);
    renderDialog();
    const noYaml = buildTestZip(hubLayoutEntries().filter((e) => !e.name.endsWith('.yaml')));
    await userEvent.upload(fileInput(), zipFile(noYaml, 'broken.zip'));
    await waitFor(() => expect(screen.getByTestId('archive-check')).toHaveAttribute('data-state', 'blocked'));
    expect(screen.getByTestId('archive-check')).toHaveTextContent('no dataset yaml');
    expect(screen.getByRole('button', { name: 'Create and upload' })).toBeDisabled();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('too little storage: pending check, "No storage available", available vs required; nothing is created', async () => {
    const calls = stubApi((url) =>
      url === '/v1/users/me/storage' ? json({ limit: 20 * 1024 ** 3, used: 20 * 1024 ** 3 - 1000, remaining: 1000 }) : undefined,
    );
    renderDialog();
    await chooseGoodArchive();
    submit();
    const alert = await screen.findByTestId('upload-problem');
    expect(alert).toHaveAttribute('data-code', 'InsufficientStorageError');
    expect(within(alert).getByText('No storage available')).toBeInTheDocument();
    const size = zipFile(buildTestZip(hubLayoutEntries())).size;
    expect(alert).toHaveTextContent(`This archive needs ${(size / 1024).toFixed(1)} KB, but only 1000 B of storage is left.`);
    expect(messages()).toEqual(expect.arrayContaining([Messages.checkingStorage, Messages.noStorage]));
    expect(notifications.store.getState().active.map((n) => n.message)).toEqual([Messages.noStorage]);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('storage taken meanwhile: the token answers 403 and the new dataset is removed again', async () => {
    const calls = stubApi((url, init) => {
      if (url === '/v1/users/me/storage') return json({ limit: 10_000_000, used: 0, remaining: 10_000_000 });
      if (url === '/v1/datasets' && init?.method === 'POST') return json(DATASET, 201);
      if (url === '/v1/uploads/token') return fail(403, 'InsufficientStorageError', 'Not enough storage', { available: 2048, required: 4096 });
      if (url.startsWith(`/v1/datasets/${DATASET.id}`) && init?.method === 'DELETE') return json({ ok: true });
      return undefined;
    });
    renderDialog();
    await chooseGoodArchive();
    submit();
    const alert = await screen.findByTestId('upload-problem');
    expect(alert).toHaveTextContent('This archive needs 4.0 KB, but only 2.0 KB of storage is left.');
    const token = calls.find((c) => c.url === '/v1/uploads/token');
    expect(token?.body).toEqual({ path: `users/${makeUser().id}/datasets/${DATASET.id}/shapes.zip`, bytes: expect.any(Number) });
    expect(calls).toContainEqual(expect.objectContaining({ method: 'DELETE', url: `/v1/datasets/${DATASET.id}?hard=true` }));
    expect(calls.find((c) => c.url === '/v1/datasets' && c.method === 'POST')?.body).toEqual({ meta: { name: 'shapes', description: '' }, task: 'detect' });
    expect(messages()).toContain(Messages.noStorage);
  });

  it('the server refuses the file as an archive: NoArchiveProvided is shown by the file', async () => {
    stubApi((url, init) => {
      if (url === '/v1/users/me/storage') return json({ limit: 10_000_000, used: 0, remaining: 10_000_000 });
      if (url === '/v1/datasets' && init?.method === 'POST') return json(DATASET, 201);
      if (url === '/v1/uploads/token') return fail(400, 'NoArchiveProvided', 'Choose a .zip, .tar or .tar.gz archive of the dataset');
      return undefined;
    });
    renderDialog();
    await chooseGoodArchive();
    submit();
    expect(await screen.findByTestId('upload-problem')).toHaveAttribute('data-code', 'NoArchiveProvided');
    expect(screen.getByTestId('upload-problem')).toHaveTextContent('Choose a .zip, .tar or .tar.gz archive of the dataset');
    expect(messages()).toContain('Choose a .zip, .tar or .tar.gz archive of the dataset');
  });
});
