import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, latestMail, linkFrom } from '../support/api';
import { startServer, type SpawnedServer } from '../support/fake-stripe';
import { datasetWithUpload, post, signedInUser } from '../support/seed';

/**
 * The web app as a person meets it: state that tells the truth without a reload, Home's
 * Recent card, the offline sign-in alert, and reset links that use the origin the browser used (ADR 0018).
 */
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const SINK_HTTP = `http://127.0.0.1:${BASE_PORT + 1001}`;
// This spec's own server (mailing to the run's sink); E2E_WEB_DIST: a copy of the web build, for a
// run beside others who rebuild apps/web/dist.
const SERVER_PORT = BASE_PORT + 9;
const BASE = `http://localhost:${SERVER_PORT}`;
const serverEnv = { SMTP_URL: `smtp://127.0.0.1:${BASE_PORT + 1000}`, ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}) };
let main: SpawnedServer;
test.use({ baseURL: BASE });
test.beforeAll(async () => {
  main = await startServer(SERVER_PORT, serverEnv);
});
test.afterAll(async () => {
  await main?.close();
});
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
fs.mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `web-polish-${name}.png`), fullPage: true });

async function signIn(page: Page, user: { email: string; password: string }) {
  expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
  return (await (await page.request.get('/v1/users/me')).json()).data.id as string;
}

test('an interrupted upload resumed elsewhere: the card turns Ready without a reload and /active-jobs is empty', async ({ page, request }) => {
  test.setTimeout(150_000);
  const user = await createVerifiedUser(request, 'stale');
  const uid = await signIn(page, user);
  // 1 MB of 3.5 MB arrived, then the browser went away.
  const upload = await datasetWithUpload(page.request, BASE, uid, 'interrupted shapes', undefined, 1024 * 1024);

  await page.goto('/datasets');
  const card = page.getByTestId('dataset-card').filter({ hasText: 'interrupted shapes' });
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Uploading');
  await page.getByTestId('sidebar').getByRole('link', { name: 'Home', exact: true }).click();
  await page.goto('/active-jobs');
  await expect(page.getByTestId('job-interrupted').filter({ hasText: 'shapes3.zip' })).toBeVisible();
  await page.goto('/datasets');
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Uploading');

  // Resumed from another browser (a new upload of the same file), then processed: no reload here.
  let loads = 0;
  page.on('load', () => (loads += 1));
  await upload.finishFresh();
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Ready', { timeout: 60_000 });
  await expect(card).toContainText('160 images');
  expect(loads).toBe(0); // no reload
  await shot(page, 'resumed-ready');

  // /active-jobs (reached in the app) no longer offers to resume the partial upload.
  await page.goto('/active-jobs');
  await expect(page.getByTestId('empty-state')).toBeVisible();
  await expect(page.getByTestId('job-interrupted')).toHaveCount(0);
  await shot(page, 'active-jobs-empty');
});

test('Home lists the 3 most recent items across datasets, projects and models, and the search finds them', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'recent');
  await signIn(page, user);
  const project = await post<{ id: string }>(page.request, '/v1/projects', { meta: { name: 'Harbour cranes' } });
  await post(page.request, '/v1/models', { project: { id: project.id }, meta: { name: 'crane-detector' } });
  await page.waitForTimeout(30);
  await post(page.request, '/v1/datasets', { meta: { name: 'Crane photos' }, task: 'detect' });
  await page.waitForTimeout(30);
  expect((await page.request.patch(`/v1/projects/${project.id}`, { data: { meta: { description: 'edited last' } } })).status()).toBe(200);

  await page.goto('/home');
  const recent = page.getByTestId('recent-items');
  await expect(recent.getByTestId('item-name')).toHaveText(['Harbour cranes', 'Crane photos', 'crane-detector']);
  await expect(recent.getByTestId('item-link').nth(2)).toContainText('Model in Harbour cranes');
  await shot(page, 'home-recent');

  // the search on Home, then the header's (Ctrl+K) dialog; a result opens the item
  await page.getByTestId('home-search-box').getByTestId('search-input').fill('cran');
  await expect(page.getByTestId('home-search-box').getByTestId('item-name')).toHaveCount(3);
  await page.getByTestId('search-open').click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('search-input').fill('photos');
  await expect(dialog.getByTestId('item-name')).toHaveText(['Crane photos']);
  await dialog.getByTestId('item-link').click();
  await expect(page).toHaveURL(/\/datasets\/\w+$/);
  await recent.waitFor({ state: 'detached' });
});

test('sign-in while offline shows the network alert of spec §8 and does not sign in by itself later', async ({ page, request, context }) => {
  const user = await createVerifiedUser(request, 'offline');
  await page.goto('/signin');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password' }).fill(user.password);
  await context.setOffline(true);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('network-error')).toHaveText('The network is experiencing difficulties. Please check your internet connection.');
  await shot(page, 'offline-sign-in');
  await context.setOffline(false);
  await page.waitForTimeout(1500);
  await expect(page).toHaveURL(/\/signin$/);
});

test.describe('links in mails without PUBLIC_URL', () => {
  let server: SpawnedServer;
  const port = BASE_PORT + 8;
  test.beforeAll(async () => {
    server = await startServer(port, { ...serverEnv, PUBLIC_URL: undefined as unknown as string });
  });
  test.afterAll(async () => {
    await server?.close();
  });

  test('the reset link uses the origin the browser used (127.0.0.1 and its port, not localhost)', async ({ page, request }) => {
    const origin = `http://127.0.0.1:${port}`;
    const user = await signedInUser(request, origin, SINK_HTTP, 'origin');
    await page.goto(`${origin}/request-password`);
    await page.getByLabel('Email').fill(user.email);
    await page.getByRole('button', { name: /send|reset/i }).click();
    const mail = await latestMail(request, user.email, /reset-password/);
    const link = linkFrom(mail, /http:\/\/\S+\/reset-password\?token=[\w%-]+/);
    expect(link.startsWith(`${origin}/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await expect(page.getByLabel('New password', { exact: false }).first()).toBeVisible();
    await shot(page, 'reset-from-origin');
  });
});
