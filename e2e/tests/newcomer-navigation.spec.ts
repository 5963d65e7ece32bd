import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startServer, type SpawnedServer } from '../support/fake-stripe';
import { uniqueUser } from '../support/api';
import { datasetWithUpload, waitForDataset } from '../support/seed';

/**
 * A newcomer's first hour (ADR 0028), on this spec's own server started as `npm start` would be:
 * no SMTP, so nothing is mailed and its first account is the admin.
 * - at 390 px the More sheet (a sheet, not a page; Sign out in red) reaches every sidebar
 *   destination and signs out;
 * - an address without an account opens the copied invite link, signs up and lands on the team with
 *   Join; an existing account sees the invite on the bell and on Notifications;
 * - the header shows Active jobs while a training run runs, and the bell the dataset that became ready.
 */
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const SERVER_PORT = BASE_PORT + 6;

let server: SpawnedServer;
let base = '';
let admin: ReturnType<typeof uniqueUser> & { id: string };
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  server = await startServer(SERVER_PORT);
  base = server.url;
  fs.mkdirSync(SHOTS, { recursive: true });
  const user = uniqueUser('admin');
  const res = await request.post(`${base}/v1/auth/signup`, { data: user });
  expect(res.status()).toBe(201);
  admin = { ...user, id: (await res.json()).data.user.id as string };
});
test.afterAll(async () => {
  await server?.close();
});

/** A signed-in context: the first one made is the admin (put on Pro for teams). */
async function signedIn(
  browser: Browser,
  user: { email: string; password: string },
  width = 1440,
  height = 900,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  expect((await page.request.post(`${base}/v1/auth/signin`, { data: { email: user.email, password: user.password } })).status()).toBe(200);
  return { context, page };
}
async function newUser(browser: Browser, prefix: string, width = 1440, height = 900) {
  const user = uniqueUser(prefix);
  const context = await browser.newContext({ viewport: { width, height } });
  const page = await context.newPage();
  const res = await page.request.post(`${base}/v1/auth/signup`, { data: user });
  expect(res.status()).toBe(201);
  return { user: { ...user, id: (await res.json()).data.user.id as string }, context, page };
}
async function proTeam(page: Page, name: string) {
  expect((await page.request.post(`${base}/v1/admin/billing/users/${admin.id}/plan`, { data: { plan: 'pro', reason: 'newcomer e2e' } })).status()).toBe(200);
  const res = await page.request.post(`${base}/v1/teams`, { data: { meta: { name } } });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()).data.id as string;
}

test('at 390 px the More sheet reaches every sidebar destination, Admin included, and signs out', async ({ browser }) => {
  const { context, page } = await signedIn(browser, admin, 390, 844);
  await page.goto(`${base}/datasets`);
  // The header carries the bell next to search.
  await expect(page.getByTestId('notification-bell')).toBeVisible();
  await page.getByTestId('mobile-more').click();
  const sheet = page.getByRole('dialog', { name: 'More' });
  await expect(sheet).toBeVisible();
  // A sheet from the bottom, not a page: the page above it stays in sight.
  const box = (await sheet.boundingBox())!;
  expect(box.height).toBeLessThan(844 * 0.8);
  expect(box.y).toBeGreaterThan(844 * 0.2);
  // Sign out is drawn as the destructive action (red text).
  const color = await page.getByTestId('more-sign-out').evaluate((el) => getComputedStyle(el.querySelector('.mantine-NavLink-label') ?? el).color);
  const [r, g, b] = color.match(/\d+/g)!.map(Number) as [number, number, number];
  expect(r, color).toBeGreaterThan(150);
  expect(r - Math.max(g, b), color).toBeGreaterThan(60);
  await page.screenshot({ path: path.join(SHOTS, 'more-sheet-390.png') });
  await page.keyboard.press('Escape');

  const destinations: [string, RegExp][] = [
    ['home', /\/home$/],
    ['integrations', /\/settings\?tab=integrations$/],
    ['support', /\/support$/],
    ['trash', /\/trash$/],
    ['notifications', /\/notifications$/],
    ['activeJobs', /\/active-jobs$/],
    ['admin', /\/admin/],
  ];
  for (const [key, url] of destinations) {
    await page.getByTestId('mobile-more').click();
    await page.getByTestId(`more-${key}`).click();
    await expect(page, key).toHaveURL(url);
    await expect(page.getByTestId(`more-${key}`)).toHaveCount(0);
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.getByTestId('mobile-more').click();
  await page.getByTestId('more-sign-out').click();
  await expect(page).toHaveURL(/\/signin/);
  expect((await page.request.get(`${base}/v1/users/me`)).status()).toBe(401);
  await context.close();
});

test('an address without an account opens the copied invite link, signs up and lands on the team with Join', async ({ browser }) => {
  const owner = await signedIn(browser, admin);
  const teamId = await proTeam(owner.page, 'Harbour crew');
  const guest = uniqueUser('newcomer');
  await owner.page.goto(`${base}/teams/${teamId}`);
  await owner.page.getByTestId('team-invite-open').click();
  await owner.page.getByTestId('invite-email').fill(guest.email);
  await owner.page.getByTestId('invite-send').click();
  // Nothing is mailed here: the inviter copies the link (shown too, for origins without a clipboard).
  const row = owner.page.getByTestId('team-invite').filter({ hasText: guest.email });
  await row.getByTestId('invite-copy-link').click();
  const link = await row.getByTestId('invite-link').inputValue();
  expect(link).toMatch(new RegExp(`^${base}/teams/${teamId}\\?invite=[\\w%-]+$`));

  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await page.goto(link);
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByTestId('invite-notice')).toContainText('Harbour crew');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByTestId('invite-notice')).toContainText(guest.email);
  const form = page.getByRole('form', { name: 'Create your account' });
  await expect(form.getByLabel('Email')).toHaveValue(guest.email);
  await form.getByLabel('First name').fill(guest.firstName);
  await form.getByLabel('Username').fill(guest.username);
  await form.getByRole('textbox', { name: 'Password' }).fill(guest.password);
  await form.getByRole('button', { name: 'Sign up' }).click();
  // Not the generic Welcome page: the team, with Join in front of the new member.
  await expect(page).toHaveURL(new RegExp(`/teams/${teamId}\\?invite=`));
  await expect(page.getByTestId('team-invite-banner')).toContainText('Harbour crew');
  await page.getByTestId('invite-accept').click();
  await expect(page.getByTestId('team-page-count')).toHaveText('2 members');
  await context.close();
  await owner.context.close();
});

test('an invited account sees the bell count, opens Notifications and joins from there', async ({ browser }) => {
  const owner = await signedIn(browser, admin);
  const teamId = await proTeam(owner.page, 'Night shift');
  const invitee = await newUser(browser, 'invitee');
  await invitee.page.goto(`${base}/home`);
  await expect(invitee.page.getByTestId('notification-count')).toHaveAttribute('data-count', '0');
  expect((await owner.page.request.post(`${base}/v1/teams/${teamId}/invites`, { data: { email: invitee.user.email } })).status()).toBe(201);
  // Pushed live: the open page's bell counts the invite without a reload.
  await expect(invitee.page.getByTestId('notification-count')).toHaveAttribute('data-count', '1');
  // Home shows it too, with Join at hand.
  await expect(invitee.page.getByTestId('home-invites')).toContainText('“Night shift”');
  await expect(invitee.page.getByTestId('home-invites').getByTestId('my-invite-join')).toBeVisible();

  // The bell and the page with a pending invite, at 1440 and 390 px, light and dark (the scheme
  // follows the system setting live).
  const phone = await signedIn(browser, invitee.user, 390, 844);
  await phone.page.goto(`${base}/home`);
  await expect(phone.page.getByTestId('notification-count')).toHaveAttribute('data-count', '1');
  for (const p of [invitee.page, phone.page]) {
    const width = p.viewportSize()!.width;
    for (const scheme of ['light', 'dark'] as const) {
      await p.emulateMedia({ colorScheme: scheme });
      await p.screenshot({ path: path.join(SHOTS, `bell-${width}-${scheme}.png`), clip: { x: 0, y: 0, width, height: 200 } });
    }
  }
  await phone.page.route('**/v1/notifications/read-all', (route) => route.abort()); // keeps the bell for the desktop steps
  await phone.page.goto(`${base}/notifications`);
  await expect(phone.page.getByTestId('notification-record')).toHaveCount(1);
  for (const scheme of ['light', 'dark'] as const) {
    await phone.page.emulateMedia({ colorScheme: scheme });
    await phone.page.screenshot({ path: path.join(SHOTS, `notifications-390-${scheme}.png`), fullPage: true });
  }
  await phone.context.close();

  await invitee.page.emulateMedia({ colorScheme: 'dark' });
  await invitee.page.getByTestId('notification-bell').click();
  await expect(invitee.page).toHaveURL(/\/notifications$/);
  const record = invitee.page.getByTestId('notification-record').filter({ hasText: 'Night shift' });
  await expect(record).toContainText(`${admin.username} invited you to join the team “Night shift”`);
  await expect(invitee.page.getByTestId('empty-state')).toHaveCount(0);
  const violations = (await new AxeBuilder({ page: invitee.page }).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await invitee.page.screenshot({ path: path.join(SHOTS, 'notifications-1440-dark.png'), fullPage: true });
  // Opening the page reads it: the bell clears, the invite stays actionable.
  await expect(invitee.page.getByTestId('notification-count')).toHaveAttribute('data-count', '0');
  await invitee.page.emulateMedia({ colorScheme: 'light' });
  await invitee.page.screenshot({ path: path.join(SHOTS, 'notifications-1440-light.png'), fullPage: true });
  await record.getByTestId('my-invite-join').click();
  await expect(record.getByTestId('my-invite-join')).toHaveCount(0);
  await expect(record).toContainText('no longer open');
  await invitee.page.goto(`${base}/teams/${teamId}`);
  await expect(invitee.page.getByTestId('team-page-count')).toHaveText('2 members');
  await invitee.context.close();
  await owner.context.close();
});

test('while a training run runs the header links to Active jobs; the bell counts the dataset that became ready', async ({ browser, playwright }) => {
  test.setTimeout(120_000);
  const { user, context, page } = await newUser(browser, 'trainer');
  const upload = await datasetWithUpload(page.request, base, user.id, 'Shapes');
  await upload.finish();
  await waitForDataset(page.request, base, upload.id);
  await page.goto(`${base}/home`);
  await expect(page.getByTestId('notification-count')).toHaveAttribute('data-count', '1');
  await expect(page.getByTestId('active-jobs-link')).toHaveCount(0);

  // A legacy (HUB) client starts training: heartbeat, then its first epoch.
  const key = (await (await page.request.post(`${base}/v1/api-keys`, { data: { name: 'trainer' } })).json()).data.legacyKey as string;
  const made = await page.request.post(`${base}/v1/models`, {
    data: { dataset: { id: upload.id }, lineage: { architecture: { name: 'yolo11n' } }, meta: { name: 'first run' }, config: { epochs: 3 } },
  });
  expect(made.status(), await made.text()).toBe(201);
  const modelId = (await made.json()).data.id as string;
  const hub = await playwright.request.newContext({ baseURL: base, extraHTTPHeaders: { 'x-api-key': key } });
  expect((await hub.post(`/v1/agent/heartbeat/models/${modelId}`, { data: { agent: 'python', agentId: null } })).status()).toBe(200);
  const metrics = JSON.stringify({ 'metrics/mAP50(B)': 0.1, 'metrics/mAP50-95(B)': 0.05, 'val/box_loss': 1 });
  expect((await hub.post(`/v1/models/${modelId}`, { data: { type: 'metrics', metrics: { 0: metrics } } })).status()).toBe(200);

  await page.goto(`${base}/models`);
  const link = page.getByTestId('active-jobs-link');
  await expect(link).toBeVisible();
  await expect(link.getByTestId('active-jobs-count')).toHaveText('1');
  await page.screenshot({ path: path.join(SHOTS, 'header-active-jobs-1440.png'), clip: { x: 0, y: 0, width: 1440, height: 120 } });
  await link.click();
  await expect(page).toHaveURL(/\/active-jobs$/);
  await expect(page.getByTestId('job-training')).toContainText('first run');
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId('active-jobs-link')).toBeVisible();
  await page.screenshot({ path: path.join(SHOTS, 'header-active-jobs-390.png'), clip: { x: 0, y: 0, width: 390, height: 120 } });

  await page.getByTestId('notification-bell').click();
  await expect(page.getByTestId('notification-record').filter({ hasText: 'Dataset “Shapes” is ready' })).toBeVisible();
  await hub.dispose();
  await context.close();
});
