import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startServer, type SpawnedServer } from '../support/fake-stripe';
import { uniqueUser } from '../support/api';

/**
 * The admin area end to end, on this spec's own server (no SMTP, so no verification;
 * the first account is its admin): an admin finds a user, changes the plan and sees the change in
 * the audit log; a non-admin never sees the Admin link and gets 403 from the admin API; the
 * analytics and jobs pages are captured at 1440 and 390 px.
 */
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
const SERVER_PORT = Number(process.env.E2E_PORT ?? 3100) + 2;

const now = new Date().toISOString();
const SAMPLE_JOBS = [
  {
    id: 'Jq0aFailedProcess01',
    source: 'queue',
    kind: 'dataset.process',
    status: 'failed',
    attempts: 3,
    maxAttempts: 3,
    lastError: 'error/processing: central directory not found (truncated archive?)',
    logTail: ['{"phase":"reading","done":120,"total":480}'],
    userId: 'u1',
    user: { id: 'u1', username: 'ada' },
    model: null,
    dataset: { id: 'd1', name: 'Harbour cranes' },
    created: now,
    updated: now,
    canRetry: true,
    canCancel: false,
  },
  {
    id: 'Jq0bQueuedImport002',
    source: 'queue',
    kind: 'roboflow.import',
    status: 'queued',
    attempts: 1,
    maxAttempts: 3,
    lastError: 'Roboflow answered 503, retrying',
    logTail: [],
    userId: 'u2',
    user: { id: 'u2', username: 'bob' },
    model: null,
    dataset: null,
    created: now,
    updated: now,
    canRetry: false,
    canCancel: true,
  },
  {
    id: 'Ja0cRunningTrain003',
    source: 'agent',
    kind: 'train',
    status: 'running',
    attempts: 1,
    maxAttempts: 1,
    lastError: null,
    logTail: [
      '      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size',
      '       3/50      2.31G      1.204      1.873      1.312         41        640: 100%',
    ],
    userId: 'u3',
    user: { id: 'u3', username: 'cleo' },
    model: { id: 'm3', name: 'crane-detector' },
    dataset: null,
    created: now,
    updated: now,
    canRetry: false,
    canCancel: true,
  },
  {
    id: 'Ja0dFailedExport004',
    source: 'agent',
    kind: 'export',
    status: 'failed',
    attempts: 2,
    maxAttempts: 2,
    lastError: 'exit code 1: TensorRT not available on this agent',
    logTail: ['Ultralytics 8.3.40 🚀 Python-3.11.9 torch-2.4.1', 'ERROR: export failure: TensorRT requires a GPU'],
    userId: 'u1',
    user: { id: 'u1', username: 'ada' },
    model: { id: 'm4', name: 'crane-detector-v2' },
    dataset: null,
    created: now,
    updated: now,
    canRetry: true,
    canCancel: false,
  },
];

let server: SpawnedServer;
test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer(SERVER_PORT);
});
test.afterAll(async () => {
  await server?.close();
});

async function newPage(browser: Browser, width = 1440, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

/** Signs up through the API of the page's context (the session cookie lands in the browser). */
async function signUp(page: Page, prefix: string) {
  const user = uniqueUser(prefix);
  const res = await page.request.post(`${server.url}/v1/auth/signup`, { data: user });
  expect(res.status(), await res.text()).toBe(201);
  return { ...user, id: (await res.json()).data.user.id as string };
}

let admin: Awaited<ReturnType<typeof signUp>>;
let member: Awaited<ReturnType<typeof signUp>>;

test('an admin finds a user, changes the plan, and sees it in the audit log', async ({ browser }) => {
  const page = await newPage(browser);
  admin = await signUp(page, 'boss'); // first account of this server: admin
  // some people and activity for the lists and charts
  const other = await newPage(browser);
  member = await signUp(other, 'member');
  for (let i = 0; i < 3; i++) {
    const extra = await newPage(browser);
    const u = await signUp(extra, `crowd${i}`);
    await extra.request.post(`${server.url}/v1/projects`, { data: { meta: { name: `Project ${i}` } } });
    await extra.request.post(`${server.url}/v1/auth/signin`, { data: { email: u.email, password: 'not-the-password-1' } });
    await extra.context().close();
  }

  await page.goto(`${server.url}/admin?tab=users`);
  await page.getByLabel('Search users').fill(member.email.slice(0, 12));
  const row = page.getByTestId('admin-user-row').filter({ hasText: member.email });
  await expect(row).toHaveCount(1);
  await expect(page.getByTestId('admin-user-row')).toHaveCount(1);
  await row.click();
  const drawer = page.getByTestId('admin-user-drawer');
  await expect(drawer).toContainText(member.email);
  await expect(drawer).toContainText('free');
  await drawer.getByRole('combobox', { name: 'Plan' }).click();
  await page.getByRole('option', { name: 'pro' }).click();
  await drawer.getByLabel('Reason').fill('Research grant 2026');
  await drawer.getByRole('button', { name: 'Set plan' }).click();
  await expect(page.getByText('Plan changed')).toBeVisible();
  await expect(drawer.getByText('pro', { exact: true })).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'admin-users-1440.png') });

  // the drawer's "Audit log" opens the log filtered on this user: the plan change is there, by the admin
  await drawer.getByRole('button', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/tab=audit/);
  const entry = page.getByTestId('audit-row').filter({ hasText: 'user.plan_change' });
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText(admin.email);
  await expect(entry).toContainText(member.email);
  await expect(entry).toContainText('Research grant 2026');
  await page.screenshot({ path: path.join(SHOTS, 'admin-audit-1440.png') });

  // the member sees the plan on their side too
  expect((await (await other.request.get(`${server.url}/v1/users/me`)).json()).data.plan).toBe('pro');
  await other.context().close();
  await page.context().close();
});

test('a non-admin never sees the Admin link and the admin API answers 403', async ({ browser }) => {
  const page = await newPage(browser);
  const user = await signUp(page, 'plain');
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('link', { name: 'Datasets' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  for (const url of [
    '/v1/admin/users/search',
    '/v1/admin/audit',
    '/v1/admin/analytics/events?from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z',
    '/v1/admin/jobs',
  ]) {
    expect((await page.request.get(`${server.url}${url}`)).status(), url).toBe(403);
  }
  expect((await page.request.post(`${server.url}/v1/admin/users/${user.id}/role`, { data: { role: 'admin', grant: true } })).status()).toBe(403);
  await page.goto(`${server.url}/admin`);
  await expect(page.getByText('Administrators only')).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${server.url}/`);
  await expect(page.getByRole('link', { name: 'Admin' })).toHaveCount(0);
  // signed out: 401
  const anon = await browser.newContext();
  expect((await anon.request.get(`${server.url}/v1/admin/users/search`)).status()).toBe(401);
  await anon.close();
  await page.context().close();
});

test('screenshots: admin analytics and jobs at 1440 and 390 px; the admin sees the Admin link', async ({ browser }) => {
  for (const width of [1440, 390]) {
    const page = await newPage(browser, width, width === 390 ? 844 : 900);
    const res = await page.request.post(`${server.url}/v1/auth/signin`, { data: { email: admin.email, password: admin.password } });
    expect(res.status()).toBe(200);
    if (width === 1440) {
      await page.goto(`${server.url}/`);
      await expect(page.getByRole('link', { name: 'Admin' })).toBeVisible();
    }
    await page.goto(`${server.url}/admin?tab=analytics`);
    await expect(page.getByTestId('chart-events')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('chart-people')).toHaveAttribute('data-ready', 'true');
    // Event names read as words in the legends and the events table (ADR 0030), not as `sign_up`.
    await expect(page.getByTestId('admin-analytics')).toContainText('Sign-ups');
    await page.screenshot({ path: path.join(SHOTS, `admin-analytics-${width}.png`), fullPage: true });
    await page.goto(`${server.url}/admin?tab=jobs`);
    await expect(page.getByTestId('admin-jobs')).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `admin-jobs-${width}.png`), fullPage: true });
    // This fresh server has no failed or running job to show, so the cards are also captured with a
    // stubbed list (the shapes the server answers) to check their layout: error, log tail, actions.
    await page.route('**/v1/admin/jobs?*', (route) => route.fulfill({ json: { data: { items: SAMPLE_JOBS, nextCursor: null } } }));
    await page.reload();
    await expect(page.getByTestId('admin-job')).toHaveCount(SAMPLE_JOBS.length);
    await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(2);
    await page.screenshot({ path: path.join(SHOTS, `admin-jobs-sample-${width}.png`), fullPage: true });
    await page.unroute('**/v1/admin/jobs?*');
    if (width === 390) {
      await page.goto(`${server.url}/admin?tab=users`);
      await expect(page.getByTestId('admin-user-row').first()).toBeVisible();
      await page.screenshot({ path: path.join(SHOTS, 'admin-users-390.png'), fullPage: true });
    }
    await page.context().close();
  }
});
