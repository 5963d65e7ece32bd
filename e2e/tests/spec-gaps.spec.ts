import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';
import { post } from '../support/seed';

/**
 * Spec items settled in docs/spec-mapping.md, as a person meets them: archiving (spec §4
 * dates.archived) with the "Show archived" filter, and SVG images (spec §3 images, §8 SVG
 * messages). Screenshots at 390 and 1440 px, light and dark, go to e2e/screenshots (not committed).
 */
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
fs.mkdirSync(SHOTS, { recursive: true });
const WIDTHS = [390, 1440] as const;
const SCHEMES = ['light', 'dark'] as const;

async function shots(page: Page, name: string) {
  for (const width of WIDTHS) {
    for (const scheme of SCHEMES) {
      await page.setViewportSize({ width, height: 900 });
      await page.emulateMedia({ colorScheme: scheme });
      await page.waitForTimeout(150);
      await page.screenshot({ path: path.join(SHOTS, `spec-gaps-${name}-${width}-${scheme}.png`), fullPage: true });
    }
  }
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
}

const logoSvg = Buffer.from(
  `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80" viewBox="0 0 120 80" onload="alert(1)">
  <script>alert('no')</script>
  <defs><linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#2a6ef2"/><stop offset="1" stop-color="#a5d8ff"/></linearGradient></defs>
  <rect width="120" height="80" fill="url(#g)"/>
  <circle cx="60" cy="40" r="22" fill="none" stroke="#fff" stroke-width="6"/>
  <image href="http://169.254.169.254/latest" width="10" height="10"/>
</svg>`,
);

async function signIn(page: Page, user: { email: string; password: string }) {
  expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
}

test('archive and unarchive a project from its page; the list hides it until "Show archived"; an SVG cover shows as an image', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'archive');
  await signIn(page, user);
  const kept = await post(page.request, '/v1/projects', { meta: { name: 'Harbour cranes', description: 'cover drawn from an SVG' } });
  const cover = await page.request.post(`/v1/projects/${kept.id}/image`, {
    multipart: { file: { name: 'cover.svg', mimeType: 'image/svg+xml', buffer: logoSvg } },
  });
  expect(cover.status(), await cover.text()).toBe(200);
  const old = await post(page.request, '/v1/projects', { meta: { name: 'Old survey 2019' } });
  const profile = await page.request.post('/v1/users/me/image', { multipart: { file: { name: 'me.svg', mimeType: 'image/svg+xml', buffer: logoSvg } } });
  expect(profile.status(), await profile.text()).toBe(200);

  await page.goto(`/projects/${old.id}`);
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByTestId('archive-toggle').click();
  await expect(page.getByTestId('archived-notice')).toBeVisible();
  await expect(page.getByText('Old survey 2019 is archived: it no longer shows in lists.')).toBeVisible();
  await shots(page, 'project-archived');

  await page.goto('/projects');
  await expect(page.getByTestId('project-card').filter({ hasText: 'Harbour cranes' })).toBeVisible();
  await expect(page.getByTestId('project-card').filter({ hasText: 'Old survey 2019' })).toHaveCount(0);
  // The SVG cover arrives as a drawn image.
  const img = page.getByTestId('project-card').filter({ hasText: 'Harbour cranes' }).locator('img').first();
  await expect(img).toBeVisible();
  expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);

  await page.getByTestId('show-archived').click();
  await expect(page.getByTestId('show-archived')).toBeChecked();
  await expect(page).toHaveURL(/archived=1/);
  const archivedCard = page.getByTestId('project-card').filter({ hasText: 'Old survey 2019' });
  await expect(archivedCard.getByTestId('archived-badge')).toBeVisible();
  await shots(page, 'projects-show-archived');

  await page.goto(`/projects/${old.id}`);
  await page.getByTestId('unarchive').click();
  await expect(page.getByTestId('archived-notice')).toHaveCount(0);
  await page.goto('/projects');
  await expect(page.getByTestId('project-card').filter({ hasText: 'Old survey 2019' })).toBeVisible();
});

test('datasets and models: archived ones appear only under "Show archived", with the badge', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'archive2');
  await signIn(page, user);
  const ds = await post(page.request, '/v1/datasets', { meta: { name: 'Shelved photos' }, task: 'detect' });
  await post(page.request, '/v1/datasets', { meta: { name: 'Current photos' }, task: 'detect' });
  expect((await page.request.post(`/v1/datasets/${ds.id}/archive`)).status()).toBe(200);
  const project = await post(page.request, '/v1/projects', { meta: { name: 'Detectors' } });
  const model = await post(page.request, '/v1/models', { project: { id: project.id }, meta: { name: 'retired-detector' } });
  await post(page.request, '/v1/models', { project: { id: project.id }, meta: { name: 'live-detector' } });
  expect((await page.request.post(`/v1/models/${model.id}/archive`)).status()).toBe(200);

  await page.goto('/datasets');
  await expect(page.getByTestId('dataset-card').filter({ hasText: 'Current photos' })).toBeVisible();
  await expect(page.getByTestId('dataset-card').filter({ hasText: 'Shelved photos' })).toHaveCount(0);
  await page.getByTestId('show-archived').click();
  await expect(page.getByTestId('show-archived')).toBeChecked();
  await expect(page.getByTestId('dataset-card').filter({ hasText: 'Shelved photos' }).getByTestId('archived-badge')).toBeVisible();
  await shots(page, 'datasets-show-archived');

  await page.goto('/models');
  await expect(page.getByTestId('model-card').filter({ hasText: 'live-detector' })).toBeVisible();
  await expect(page.getByTestId('model-card').filter({ hasText: 'retired-detector' })).toHaveCount(0);
  await page.goto('/models?archived=1');
  await expect(page.getByTestId('model-card').filter({ hasText: 'retired-detector' }).getByTestId('archived-badge')).toBeVisible();
});

test("a broken SVG chosen as a cover says 'Loaded file is not valid SVG' and is not taken", async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'svg');
  await signIn(page, user);
  const project = await post(page.request, '/v1/projects', { meta: { name: 'Broken cover' } });
  await page.goto(`/projects/${project.id}`);
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog');
  await dialog
    .getByTestId('image-dropzone')
    .locator('input[type=file]')
    .setInputFiles({ name: 'broken.svg', mimeType: 'image/svg+xml', buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect') });
  await expect(dialog.getByTestId('svg-error')).toHaveText('Loaded file is not valid SVG');
  await shots(page, 'svg-invalid');
  // A good one is taken and previewed.
  await dialog.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles({ name: 'cover.svg', mimeType: 'image/svg+xml', buffer: logoSvg });
  await expect(dialog.getByTestId('svg-error')).toHaveCount(0);
  await expect(dialog.getByText('cover.svg')).toBeVisible();
  await shots(page, 'svg-chosen');
});
