import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startServer, type SpawnedServer } from '../support/fake-stripe';
import { uniqueUser } from '../support/api';
import { FIXTURES } from '../support/seed';

/**
 * ADR 0030 end to end, on this spec's own server (billing off, no SMTP, export worker off; the
 * first account is its admin): a Free user compares plans — told in plain words what this server
 * turns off — and requests an upgrade; the admin sees the request with a count and grants it in one
 * click; the explore page lists another user's public dataset; admin jobs show names, not ids.
 * Screenshots of the plan comparison and explore at 390 and 1440 px, light and dark.
 */
const SHOTS = path.resolve(import.meta.dirname, '../screenshots/plans-explore');
fs.mkdirSync(SHOTS, { recursive: true });
const SERVER_PORT = Number(process.env.E2E_PORT ?? 3100) + 14;

let server: SpawnedServer;
/** The server's first account (its admin), signed up by the first test. */
let boss: { email: string; password: string };
test.describe.configure({ mode: 'serial' });
test.setTimeout(90_000);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer(SERVER_PORT, { EXPORT_WORKER: 'off' });
});
test.afterAll(async () => {
  await server?.close();
});

async function newPage(browser: Browser, width = 1440, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  return { page, errors };
}

async function signUp(page: Page, prefix: string) {
  const user = uniqueUser(prefix);
  const res = await page.request.post(`${server.url}/v1/auth/signup`, { data: user });
  expect(res.status(), await res.text()).toBe(201);
  return { ...user, id: (await res.json()).data.user.id as string };
}

async function shots(page: Page, name: string, ready: () => Promise<void>) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
      await ready();
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        `${name} @${size.width} scrolls sideways`,
      ).toBeLessThanOrEqual(1);
      await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}-${scheme}.png`), fullPage: true, animations: 'disabled' });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('a Free user requests an upgrade; the admin sees it with a count and grants it; plan texts say what is off here', async ({ browser }) => {
  const admin = await newPage(browser);
  boss = await signUp(admin.page, 'boss'); // first account: admin
  expect((await admin.page.request.put(`${server.url}/v1/admin/support/contact`, { data: { email: 'help@sightline.test' } })).status()).toBe(200);

  const user = await newPage(browser);
  const u = await signUp(user.page, 'asker');
  // Support's Contact card shows the admin's address.
  await user.page.goto(`${server.url}/support`);
  await expect(user.page.getByTestId('support-contact')).toHaveAttribute('href', 'mailto:help@sightline.test');

  // A Free user opening the wallet reads why there is none, and finds the plans from there.
  await user.page.goto(`${server.url}/wallet`);
  await expect(user.page.getByRole('heading', { name: 'The wallet comes with Pro and Enterprise' })).toBeVisible();
  await user.page.getByTestId('wallet-compare-plans').click();
  await expect(user.page).toHaveURL(`${server.url}/plans`);

  // The comparison never promises what the flags turn off, and says so in the user's words.
  const pro = user.page.getByTestId('plan-pro');
  await expect(user.page.getByTestId('plan-free').getByTestId('plan-current')).toBeVisible();
  await expect(pro).toContainText('Cloud training: Not enabled on this server');
  await expect(pro).toContainText('Dedicated inference: Not enabled on this server');
  await expect(user.page.getByTestId('plan-free')).toContainText('Teams: Join teams you are invited to');
  await expect(user.page.getByTestId('plan-enterprise')).toContainText('Models: Unlimited');
  await expect(user.page.getByTestId('plan-flags-off')).toContainText('Cloud training is not enabled on this server — ask your admin');
  await expect(user.page.getByTestId('plan-comparison')).not.toContainText(/feature flag|coming later/i);
  await shots(user.page, 'plans', () => expect(pro).toBeVisible());

  await pro.getByRole('button', { name: 'Request Pro' }).click();
  await user.page.getByTestId('request-message').fill('For my thesis on harbour traffic');
  await user.page.getByTestId('request-send').click();
  await expect(user.page.getByTestId('upgrade-request-open')).toContainText('You asked for Pro');
  await expect(user.page.getByTestId('upgrade-request-open')).toContainText('help@sightline.test');
  await expect(pro.getByRole('button', { name: 'Request sent' })).toBeDisabled();

  // The admin sees the count on the tab and grants with one click.
  await admin.page.goto(`${server.url}/admin`);
  await expect(admin.page.getByTestId('requests-count')).toHaveText('1');
  await admin.page.getByRole('tab', { name: /Upgrade requests/ }).click();
  const card = admin.page.getByTestId('upgrade-request').filter({ hasText: u.username });
  await expect(card).toContainText(`${u.username} asks for Pro`);
  await expect(card).toContainText('For my thesis on harbour traffic');
  await card.getByRole('button', { name: 'Grant Pro' }).click();
  await expect(admin.page.getByText('No open requests.')).toBeVisible();
  await expect(admin.page.getByTestId('requests-count')).toHaveCount(0);

  await user.page.goto(`${server.url}/settings?tab=billing`);
  await expect(user.page.getByTestId('billing-plan')).toHaveText('Pro');
  // Pro with both flags off: the billing tab promises neither cloud training nor dedicated inference.
  await expect(user.page.getByTestId('plan-limits')).toContainText('Cloud trainingNot enabled on this server');
  await expect(user.page.getByTestId('plan-limits')).toContainText('Dedicated inferenceNot enabled on this server');
  expect([...admin.errors, ...user.errors]).toEqual([]);
});

test("the explore page lists another user's public dataset, searchable; admin jobs name the model, not its id", async ({ browser }) => {
  const sharer = await newPage(browser);
  const sharerUser = await signUp(sharer.page, 'sharer');
  const tag = Date.now().toString(36);
  const post = async (url: string, data: unknown) => {
    const res = await sharer.page.request.post(`${server.url}${url}`, { data });
    expect(res.status(), await res.text()).toBe(201);
    return (await res.json()).data as { id: string };
  };
  const shared = await post('/v1/datasets', {
    meta: { name: `Harbour boats ${tag}`, description: 'Boats in the harbour at dawn.', privacy: 'public' },
    task: 'detect',
  });
  await post('/v1/datasets', { meta: { name: `Private boats ${tag}`, privacy: 'private' }, task: 'detect' });
  const project = await post('/v1/projects', { meta: { name: `Harbour ${tag}` } });
  // A .pt upload queues its ONNX export; with no export worker it waits in the queue for an agent.
  const upload = await sharer.page.request.post(`${server.url}/v1/models/upload`, {
    multipart: {
      project_id: project.id,
      model_name: `boats-detector-${tag}`,
      file: { name: 'weights.pt', mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(FIXTURES, 'shapes3-detect.pt')) },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const model = (await upload.json()).data as { id: string };

  // The admin (signed in again in a fresh context) explores from the sidebar.
  const admin = await newPage(browser);
  expect((await admin.page.request.post(`${server.url}/v1/auth/signin`, { data: { email: boss.email, password: boss.password } })).status()).toBeLessThan(300);
  await admin.page.goto(`${server.url}/home`);
  await admin.page.getByTestId('nav-explore').click();
  await expect(admin.page).toHaveURL(`${server.url}/explore`);
  await expect(admin.page.getByRole('heading', { name: 'Explore' })).toBeVisible();
  const item = admin.page.getByTestId('explore-item').filter({ hasText: `Harbour boats ${tag}` });
  await expect(item).toBeVisible();
  await expect(item).toContainText('Boats in the harbour at dawn.');
  await expect(admin.page.getByTestId('explore-item').filter({ hasText: `Private boats ${tag}` })).toHaveCount(0);
  await admin.page.getByTestId('explore-search').fill(`boats ${tag}`);
  await expect(admin.page).toHaveURL(/q=boats/);
  await expect(admin.page.getByTestId('explore-item')).toHaveCount(1);
  await shots(admin.page, 'explore', () => expect(item).toBeVisible());
  await item.getByRole('link', { name: `Harbour boats ${tag}` }).click();
  await expect(admin.page).toHaveURL(`${server.url}/datasets/${shared.id}`);

  // Names, not ids: the queued ONNX export reads "export · <model name>" on the overview and in the Jobs tab.
  await admin.page.goto(`${server.url}/admin`);
  const queued = admin.page.getByTestId('agent-jobs-table').getByRole('link', { name: `boats-detector-${tag}` });
  await expect(queued).toHaveAttribute('href', `/models/${model.id}`);
  await admin.page.goto(`${server.url}/admin?tab=jobs`);
  await expect(admin.page.getByTestId('admin-job-title').filter({ hasText: `export · boats-detector-${tag}` })).toBeVisible();
  await expect(admin.page.getByTestId('admin-job').filter({ hasText: `boats-detector-${tag}` })).toContainText(`by ${sharerUser.username}`);
  expect([...sharer.errors, ...admin.errors]).toEqual([]);
});
