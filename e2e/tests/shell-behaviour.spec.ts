import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';

const SHOTS = path.resolve(import.meta.dirname, '../screenshots');

async function signIn(page: Page, user: { email: string; password: string }) {
  const res = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
}

test('guest pages send a signed-in user home; the sidebar collapse is remembered across reloads', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'shell');
  await signIn(page, user);
  await page.goto('/signin');
  await expect(page).toHaveURL(/\/home$/);
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar).not.toHaveAttribute('data-collapsed');
  await page.getByRole('button', { name: 'Collapse sidebar' }).click();
  await expect(sidebar).toHaveAttribute('data-collapsed', 'true');
  await page.reload();
  await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
  await page.getByRole('button', { name: 'Expand sidebar' }).click();
  await page.reload();
  await expect(page.getByTestId('sidebar')).not.toHaveAttribute('data-collapsed');
});

test('notifications: 4 s timeout, 6 s with a link, paused while hovered, the action link navigates', async ({ page }) => {
  await page.clock.install();
  await page.goto('/uikit');
  // The installed clock still ticks at real pace; freeze it so a busy machine cannot eat the timeouts.
  const now = await page.evaluate(() => Date.now());
  await page.clock.pauseAt(now + 1000);
  // The live notification area (the page also shows static samples).
  const area = page.locator('section[aria-live="polite"][aria-label="Notifications"]');
  await page.getByRole('button', { name: 'Show success' }).click();
  await expect(area.getByText('Saved successfully.')).toBeVisible();
  await page.clock.runFor(3500);
  await expect(area.getByText('Saved successfully.')).toBeVisible();
  await page.clock.runFor(1000);
  await expect(area.getByText('Saved successfully.')).toHaveCount(0);

  // With a link: 6000 ms, and hovering pauses the countdown.
  await page.getByRole('button', { name: 'Show with link' }).click();
  const toast = area.getByTestId('notification').filter({ hasText: 'Model Updated' });
  await expect(toast).toBeVisible();
  await page.clock.runFor(4500);
  await expect(toast).toBeVisible();
  await toast.hover();
  await page.clock.runFor(5000);
  await expect(toast).toBeVisible();
  await page.mouse.move(0, 0);
  await page.clock.runFor(2000);
  await expect(toast).toHaveCount(0);

  await page.getByRole('button', { name: 'Show with link' }).click();
  await area.getByTestId('notification').filter({ hasText: 'Model Updated' }).getByRole('button', { name: 'Open' }).click();
  await expect(page).toHaveURL(/\/(notifications|signin)/);
  await expect(area.getByText('Model Updated')).toHaveCount(0);
});

test('connectivity: connecting after 2 failed /alive checks, offline after 9, online again when it answers', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'net');
  await page.clock.install();
  await signIn(page, user);
  await page.goto('/home');
  await expect(page.getByTestId('sidebar')).toBeVisible();
  let down = true;
  await page.route('**/alive', (route) => (down ? route.abort('connectionrefused') : route.continue()));
  const banner = page.getByTestId('connectivity');
  // One 5 s check at a time: let each failed fetch settle before the next tick.
  const tick = async (n: number) => {
    for (let i = 0; i < n; i++) {
      await page.clock.runFor(5_000);
      await page.waitForTimeout(150);
    }
  };
  await tick(1);
  await expect(banner).toHaveCount(0);
  await tick(1);
  await expect(banner).toHaveAttribute('data-status', 'connecting');
  await expect(banner).toContainText('Connecting');
  await tick(6);
  await expect(banner).toHaveAttribute('data-status', 'connecting');
  await tick(1);
  await expect(banner).toHaveAttribute('data-status', 'offline');
  await expect(banner).toContainText('Offline');
  down = false;
  await tick(1);
  await expect(banner).toHaveCount(0);
});

test('screenshots of the main layouts at 1280 and 390 px', async ({ browser, request }) => {
  fs.mkdirSync(SHOTS, { recursive: true });
  const user = await createVerifiedUser(request, 'shots');
  for (const width of [1280, 390]) {
    const context = await browser.newContext({ viewport: { width, height: width === 390 ? 844 : 800 } });
    const page = await context.newPage();
    await page.goto('/signin');
    await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `layout-public-signin-${width}.png`) });
    await page.goto('/support');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `layout-public-support-${width}.png`) });
    await signIn(page, user);
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `layout-authenticated-home-${width}.png`) });
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.screenshot({ path: path.join(SHOTS, `layout-authenticated-settings-${width}.png`) });
    await context.close();
  }
  for (const f of ['layout-public-signin-1280.png', 'layout-authenticated-home-390.png']) expect(fs.statSync(path.join(SHOTS, f)).size).toBeGreaterThan(10_000);
});
