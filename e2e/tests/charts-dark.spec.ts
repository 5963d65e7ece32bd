import { expect, test } from '@playwright/test';
import { createVerifiedUser } from '../support/api';
import { datasetWithUpload, waitForDataset } from '../support/seed';

const BASE = `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}`;

/**
 * Dark theme charts: every text the dataset charts draw (axis labels, legend) meets WCAG AA
 * contrast (4.5:1) against the surface the chart sits on. The bar charts render SVG, so the
 * drawn colours are read from the page itself.
 */
test('dark theme: chart axis labels and legends meet WCAG AA contrast on their background', async ({ page, request }) => {
  test.setTimeout(150_000);
  const user = await createVerifiedUser(request, 'darkcharts');
  expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const uid = (await (await page.request.get('/v1/users/me')).json()).data.id as string;
  const upload = await datasetWithUpload(page.request, BASE, uid, 'dark charts');
  await upload.finish();
  await waitForDataset(page.request, BASE, upload.id);

  await page.addInitScript(() => localStorage.setItem('sightline.color-scheme', 'dark'));
  await page.goto(`/datasets/${upload.id}`);
  await page.getByRole('tab', { name: 'Overview' }).click();
  for (const chart of ['split-chart', 'class-chart']) {
    await expect(page.getByTestId(chart)).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
    const result = await page.getByTestId(chart).evaluate((el) => {
      const rgb = (css: string) => (css.match(/[\d.]+/g) ?? []).slice(0, 4).map(Number);
      const lum = ([r, g, b]: number[]) =>
        [r!, g!, b!]
          .map((v) => v / 255)
          .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4))
          .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i]!, 0);
      let bgEl: Element | null = el;
      let bg = 'rgba(0, 0, 0, 0)';
      while (bgEl) {
        bg = getComputedStyle(bgEl).backgroundColor;
        const parts = rgb(bg);
        if (parts.length === 3 || (parts[3] ?? 0) > 0) break;
        bgEl = bgEl.parentElement;
      }
      const texts = Array.from(el.querySelectorAll('svg text')).filter((t) => (t.textContent ?? '').trim());
      const ratios = texts.map((t) => {
        const fill = getComputedStyle(t).fill;
        const [a, b] = [lum(rgb(fill)), lum(rgb(bg))].sort((x, y) => y - x);
        return { text: t.textContent, fill, ratio: (a! + 0.05) / (b! + 0.05) };
      });
      return { bg, count: texts.length, worst: ratios.sort((x, y) => x.ratio - y.ratio)[0] };
    });
    expect(result.count, chart).toBeGreaterThan(2);
    expect(result.worst!.ratio, `${chart}: "${result.worst!.text}" ${result.worst!.fill} on ${result.bg}`).toBeGreaterThanOrEqual(4.5);
  }
});
