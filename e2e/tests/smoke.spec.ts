import { expect, test } from '@playwright/test';

test('the server answers /alive and serves the web app with an SPA fallback that really renders', async ({ page, request }) => {
  const alive = await request.get('/alive');
  expect((await alive.json()).data.ok).toBe(true);
  // A broken bundle still answers 200 with an empty #root: what must hold is that the app ran.
  const scriptErrors: string[] = [];
  const consoleErrors: string[] = [];
  page.on('pageerror', (e) => scriptErrors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  const res = await page.goto('/some/client/route');
  expect(res?.status()).toBe(200);
  expect(await page.locator('#root').count()).toBe(1);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scriptErrors).toEqual([]);
  // Signed out, the app asks who is here without a failed request in the console (ADR 0030).
  expect(consoleErrors).toEqual([]);
});
