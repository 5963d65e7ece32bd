import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { formatBytes } from '../../packages/contracts/src/format';
import { buildZip, makeImage } from '../../apps/server/src/modules/datasets/processing/test-archives';
// The fake Roboflow's port follows the server's (playwright.config.ts).
const FAKE_ROBOFLOW_PORT = Number(process.env.E2E_PORT ?? 3100) + 1002;
import { createVerifiedUser } from '../support/api';
import { E2E_ROBOFLOW_OFFLINE_KEY } from '../support/roboflow-key';

// ADR 0029 and the newcomer's first hour: the browser's check and the server apply the same dataset
// rules (the bad-lines zip's expected list comes from the real ultralytics verify_image_label, see
// scripts/fixtures/verify-image-label.py); the task follows a classification zip; an interrupted upload
// waits for its file with Resume; a server without internet does not blame the Roboflow key.
const FIXTURES = path.resolve(import.meta.dirname, '../fixtures');
const BAD_LINES = path.join(FIXTURES, 'bad-lines.zip');
const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'bad-lines.expected.json'), 'utf8')) as { dropped: string[]; pairs: { image: string }[] };
const SHAPES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models/shapes3.zip');
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
fs.mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `dataset-rules-${name}.png`), fullPage: true });

async function signIn(page: Page, prefix: string) {
  const user = await createVerifiedUser(page.request, prefix);
  expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
  return user;
}

async function openCreateDialog(page: Page, file: string) {
  await page.goto('/datasets');
  await page.getByTestId('create-dataset').click();
  const dialog = page.getByRole('dialog', { name: 'New dataset' });
  await dialog.locator('input[type=file]').setInputFiles(file);
  return dialog;
}

test('the bad-lines zip: the browser lists the pairs verify_image_label drops, the server leaves out the same and is Ready', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, 'rules');
  const dialog = await openCreateDialog(page, BAD_LINES);
  const check = dialog.getByTestId('archive-check');
  await expect(check).toHaveAttribute('data-state', 'left-out');
  await expect(check).toContainText(`${expected.dropped.length} images will be left out`);
  const listed = await dialog.getByTestId('left-out-item').evaluateAll((items) => items.map((i) => i.getAttribute('data-image')));
  expect(listed.sort()).toEqual([...expected.dropped].sort());
  await shot(page, 'check-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'check-390');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1440, height: 900 });
  await dialog.getByRole('button', { name: 'Create and upload' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('dataset-card').filter({ hasText: 'bad-lines' });
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Ready', { timeout: 30_000 });
  await expect(card).toContainText(`${expected.pairs.length - expected.dropped.length} images`);
  // The processing notice does not outlive processing.
  await expect(page.getByTestId('notification').filter({ hasText: 'being processed' })).toHaveCount(0);
  await card.getByTestId('dataset-name').click();
  await page.getByRole('tab', { name: /Errors & warnings/ }).click();
  await expect(page.getByTestId('report-left-out')).toContainText(`${expected.dropped.length} images left out`);
  const rows = page.locator('[data-testid=report-row][data-severity=left-out]');
  await expect(rows).toHaveCount(expected.dropped.length);
  const reported = await rows.evaluateAll((items) => items.map((i) => i.getAttribute('data-image')));
  expect(reported.sort()).toEqual([...expected.dropped].sort());
  await shot(page, 'report-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await shot(page, 'report-390-dark');
  // Nothing scrolls sideways at 390 px: the wide table and the filter scroll in their own boxes.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await page.emulateMedia({ colorScheme: 'light' });
});

test('a classification zip needs no manual task change', async ({ page }) => {
  test.setTimeout(45_000);
  await signIn(page, 'cls');
  const img = await makeImage('jpeg', 32, 32);
  const zip = buildZip(
    ['train/cat/1.jpg', 'train/cat/2.jpg', 'train/dog/3.jpg', 'val/cat/4.jpg', 'val/dog/5.jpg'].map((name) => ({ name: `pets/${name}`, data: img })),
  );
  const file = path.join(test.info().outputDir, 'pets.zip');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, zip);
  const dialog = await openCreateDialog(page, file);
  // The task was Detect; the archive settles it.
  await expect(dialog.getByTestId('task-picked')).toContainText('This archive is a Classify dataset');
  await expect(dialog.getByRole('combobox', { name: 'Task' })).toHaveValue('Classify');
  await expect(dialog.getByTestId('archive-check')).toHaveAttribute('data-state', 'ok');
  await shot(page, 'classify-check');
  await dialog.getByRole('button', { name: 'Create and upload' }).click();
  const card = page.getByTestId('dataset-card').filter({ hasText: 'pets' });
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Ready', { timeout: 30_000 });
  await expect(card).toContainText('Classify');
});

test('an upload interrupted by closing the tab waits for its file, shows the same bytes everywhere, and resumes', async ({ browser }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext();
  const first = await context.newPage();
  await signIn(first, 'gone');
  await first.route('**/v1/uploads/tus/**', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, 400));
    await route.continue().catch(() => undefined);
  });
  const dialog = await openCreateDialog(first, SHAPES);
  await expect(dialog.getByTestId('archive-check')).toHaveAttribute('data-state', /ok|left-out/, { timeout: 20_000 });
  await dialog.getByRole('button', { name: 'Create and upload' }).click();
  const sending = first.getByTestId('dataset-card').filter({ hasText: 'shapes3' });
  await expect(sending.getByTestId('upload-progress')).toBeVisible();
  await expect
    .poll(async () => (await (await first.request.get('/v1/active-jobs')).json()).data.uploads[0]?.offset ?? 0, { timeout: 20_000 })
    .toBeGreaterThan(0);
  const id = (await sending.getAttribute('data-id'))!;
  await first.close({ runBeforeUnload: false });

  const page = await context.newPage();
  await page.goto('/datasets');
  const card = page.getByTestId('dataset-card').filter({ hasText: 'shapes3' });
  const badge = card.getByTestId('dataset-status');
  await expect(badge).toHaveAttribute('data-waiting', 'true', { timeout: 20_000 });
  await expect(badge).toHaveText('Waiting for the file');
  const upload = (await (await page.request.get('/v1/active-jobs')).json()).data.uploads.find((u: { datasetId: string }) => u.datasetId === id) as {
    offset: number;
    bytes: number;
  };
  expect(upload.offset).toBeGreaterThan(0);
  expect(upload.offset).toBeLessThan(upload.bytes);
  await expect(card.getByTestId('waiting-for-file')).toContainText(`${formatBytes(upload.offset)} of ${formatBytes(upload.bytes)} received`);
  await shot(page, 'waiting-card');

  await page.goto('/active-jobs');
  await expect(page.getByTestId('job-interrupted').filter({ hasText: 'shapes3.zip' })).toContainText(
    `${formatBytes(upload.offset)} of ${formatBytes(upload.bytes)}`,
  );
  await page.goto('/datasets');
  await card.getByRole('link', { name: 'Resume the upload of shapes3' }).click();
  await expect(page).toHaveURL(new RegExp(`/datasets/${id}$`));
  const panel = page.getByTestId('archive-panel');
  await expect(panel).toContainText(`shapes3.zip stopped after ${formatBytes(upload.offset)} of ${formatBytes(upload.bytes)}`);
  await panel.locator('input[type=file]').setInputFiles(SHAPES);
  await expect(page.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Ready', { timeout: 60_000 });
  await context.close();
});

test('Roboflow from a server without internet: the message blames the network, not the key; a wrong key still blames the key', async ({ page }) => {
  test.setTimeout(45_000);
  await signIn(page, 'rfoff');
  await page.goto('/settings?tab=integrations');
  const tab = page.getByTestId('integrations-tab');
  const field = tab.getByLabel('Private API key');
  // Offline for this key only: the fake is shared with specs that may run at the same time (E2E_WORKERS).
  const fake = `http://127.0.0.1:${FAKE_ROBOFLOW_PORT}/__offline?key=${E2E_ROBOFLOW_OFFLINE_KEY}`;
  expect((await page.request.get(`${fake}&on=1`)).status()).toBe(200);
  try {
    await field.fill(E2E_ROBOFLOW_OFFLINE_KEY);
    await tab.getByRole('button', { name: 'Link workspace' }).click();
    const problem = tab.getByTestId('roboflow-problem');
    await expect(problem).toHaveAttribute('data-code', 'roboflow/unreachable', { timeout: 20_000 });
    await expect(problem).toContainText('The server cannot reach Roboflow');
    await expect(problem).toContainText('not your API key');
    await expect(field).not.toHaveAttribute('data-invalid', 'true');
    await shot(page, 'roboflow-offline');
  } finally {
    await page.request.get(`${fake}&on=0`);
  }
  await field.fill('wrong-private-key-000');
  await tab.getByRole('button', { name: 'Link workspace' }).click();
  await expect(field).toHaveAttribute('data-invalid', 'true');
  await expect(tab).toContainText('Roboflow does not accept this API key');
  await expect(tab.getByTestId('roboflow-problem')).toHaveCount(0);
});
