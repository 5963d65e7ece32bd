import { expect, test } from '@playwright/test';

test('the server answers /alive and serves the web app with an SPA fallback', async ({ page, request }) => {
  const alive = await request.get('/alive');
  expect((await alive.json()).data.ok).toBe(true);
  const res = await page.goto('/some/client/route');
  expect(res?.status()).toBe(200);
  expect(await page.locator('#root').count()).toBe(1);
});
