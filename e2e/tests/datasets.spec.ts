import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page, type Request } from '@playwright/test';
import { createVerifiedUser } from '../support/api';
import { uploadDatasetViaApi } from '../support/dataset-upload';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models');
const SHAPES = path.join(FIXTURES, 'shapes3.zip');
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
fs.mkdirSync(SHOTS, { recursive: true });
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: path.join(SHOTS, `datasets-${name}.png`), fullPage });
async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).exclude('[data-testid=notification]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

async function signIn(page: Page, user: { email: string; password: string }) {
  const res = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
}

/** A stored (uncompressed) zip, enough for test archives. */
function buildZip(entries: Array<{ name: string; data: string | Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const data = typeof e.data === 'string' ? Buffer.from(e.data) : e.data;
    const crc = zlib.crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Holds every tus PATCH for `ms` so that progress, pause and resume can be watched on a local server. */
async function slowUploads(page: Page, ms: number) {
  await page.route('**/v1/uploads/tus/**', async (route) => {
    if (route.request().method() === 'PATCH') await new Promise((r) => setTimeout(r, ms));
    await route.continue().catch(() => undefined); // the request may have been aborted by pause()
  });
}

async function createThroughDialog(page: Page, file: string, expectCheck: RegExp) {
  await page.getByTestId('create-dataset').click();
  const dialog = page.getByRole('dialog', { name: 'New dataset' });
  await dialog.locator('input[type=file]').setInputFiles(file);
  await expect(dialog.getByTestId('archive-check')).toContainText(expectCheck);
  return dialog;
}

const datasetIdOf = async (page: Page, name: string) => (await page.getByTestId('dataset-card').filter({ hasText: name }).getAttribute('data-id'))!;

test('upload shapes3.zip through the UI: checked, progress, Ready, images with boxes, class chart, share unlisted, delete and undo', async ({
  page,
  request,
  browser,
}) => {
  test.setTimeout(180_000);
  const user = await createVerifiedUser(request, 'ds');
  await signIn(page, user);
  await page.goto('/datasets');
  await expect(page.getByTestId('empty-state')).toContainText('No datasets yet');

  await slowUploads(page, 120);
  const dialog = await createThroughDialog(page, SHAPES, /YOLO layout in "shapes3\/" described by "shapes3\/data.yaml"/);
  await expect(dialog.getByTestId('archive-check')).toContainText('Train: 120 images');
  await expect(dialog.getByLabel('Name')).toHaveValue('shapes3');
  await dialog.getByLabel('Description').fill('Red squares, green circles and blue triangles.');
  await shot(page, '01-create-dialog');
  await dialog.getByRole('button', { name: 'Create and upload' }).click();
  await expect(dialog).toBeHidden();

  const card = page.getByTestId('dataset-card').filter({ hasText: 'shapes3' });
  await expect(card.getByTestId('upload-progress')).toBeVisible();
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Uploading');
  await expect.poll(async () => parseInt((await card.getByTestId('upload-percent').textContent()) ?? '0', 10)).toBeGreaterThan(10);
  await shot(page, '02-uploading');
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', /Loading|Ready/, { timeout: 30_000 });
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Ready', { timeout: 60_000 });
  await expect(card.getByTestId('dataset-previews').locator('img').first()).toBeVisible();
  await expect(card).toContainText('160 images');
  await expect(card).toContainText('3 classes');
  await shot(page, '03-list-ready');
  expect(await seriousViolations(page)).toEqual([]);

  await card.getByTestId('dataset-name').click();
  const id = page.url().split('/datasets/')[1]!;
  await expect(page.getByTestId('dataset-title')).toHaveText('shapes3');
  await expect(page.getByTestId('fact-classes')).toHaveText('3');
  await expect(page.getByTestId('fact-images')).toHaveText('160');
  await expect(page.getByTestId('fact-owner')).toHaveText(`@${user.username}`);
  const tiles = page.getByTestId('image-tile');
  await expect(tiles).toHaveCount(48);
  await expect(page.getByTestId('image-grid').getByTestId('label-box').first()).toBeVisible();
  // labels are drawn once a thumbnail has loaded (thumbnails below the fold load lazily)
  await expect.poll(() => page.getByTestId('image-grid').getByTestId('label-box').count()).toBeGreaterThan(12);
  await expect(tiles.first().locator('img')).toHaveJSProperty('complete', true);
  await shot(page, '04-images');
  expect(await seriousViolations(page)).toEqual([]);

  // split filter and pages come from the server
  await page.getByTestId('split-filter').getByText('Test · 10').click();
  await expect(tiles).toHaveCount(10);
  await tiles.filter({ hasText: 'test_0008.png' }).click();
  const lightbox = page.getByRole('dialog');
  await expect(lightbox.getByTestId('lightbox-image')).toHaveJSProperty('complete', true);
  await expect.poll(() => lightbox.getByTestId('lightbox-image').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  await expect(lightbox.getByTestId('label-box').first()).toBeVisible();
  await expect(lightbox).toContainText(/red_square|green_circle|blue_triangle/);
  await page.waitForTimeout(400); // the modal's fade-in
  await shot(page, '05-lightbox');
  await page.keyboard.press('Escape');

  await page.getByRole('tab', { name: 'Overview' }).click();
  await expect(page.getByTestId('class-chart')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('class-chart').locator('svg')).toBeVisible();
  await expect(page.getByTestId('class-chart')).toContainText('red_square');
  await expect(page.getByTestId('class-table')).toContainText('blue_triangle');
  await shot(page, '06-overview');
  expect(await seriousViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('tab', { name: 'Images' }).click();
  await expect(tiles.first()).toBeVisible();
  await shot(page, '06b-mobile', false);
  await page.setViewportSize({ width: 1280, height: 720 });

  // edit name and description; Save only once something changed
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit name and description' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit dataset' });
  await expect(edit.getByRole('button', { name: 'Save' })).toBeDisabled();
  await edit.getByLabel('Description').fill('Three classes of coloured shapes on noise.');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toBeHidden();
  await expect(page.getByTestId('dataset-header')).toContainText('Three classes of coloured shapes on noise.');

  // share as unlisted, then open the page signed out in a fresh browser context
  await page.getByTestId('share-button').click();
  await page.getByRole('menuitem', { name: /Unlisted/ }).click();
  await expect(page.getByTestId('dataset-header')).toContainText('Unlisted');
  const guest = await browser.newContext();
  const anon = await guest.newPage();
  await anon.goto(`/datasets/${id}`);
  await expect(anon.getByTestId('dataset-title')).toHaveText('shapes3');
  await expect(anon.getByTestId('public-signup')).toBeVisible();
  await expect(anon.getByTestId('image-tile')).toHaveCount(48);
  await expect(anon.getByTestId('share-button')).toHaveCount(0);
  await expect(anon.getByRole('button', { name: 'More actions' })).toHaveCount(0);
  await expect(anon.getByRole('button', { name: 'Download' })).toBeVisible();
  await anon.getByRole('tab', { name: 'Overview' }).click();
  await expect(anon.getByTestId('class-chart')).toHaveAttribute('data-ready', 'true');
  await shot(anon, '07-signed-out');
  await guest.close();

  // delete → trash, with Undo in the notification → restored
  await page.getByRole('button', { name: 'More actions' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/datasets$/);
  const toast = page.getByTestId('notification').filter({ hasText: 'shapes3 moved to the trash.' });
  await expect(toast).toBeVisible();
  await expect(page.getByTestId('dataset-card')).toHaveCount(0);
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(page.getByTestId('notification').filter({ hasText: 'shapes3 restored.' })).toBeVisible();
  await expect(page.getByTestId('dataset-card').filter({ hasText: 'shapes3' })).toBeVisible();
  expect((await (await page.request.get(`/v1/datasets/${id}`)).json()).data.dates.deleted).toBeNull();
});

test('an interrupted upload resumes with no byte lost: pause/resume in the browser, then a reload resumes from the stored fingerprint', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const user = await createVerifiedUser(request, 'resume');
  await signIn(page, user);
  const original = fs.readFileSync(SHAPES);
  const patches: Array<{ url: string; offset: number }> = [];
  const creates: string[] = [];
  page.on('request', (req: Request) => {
    if (!req.url().includes('/v1/uploads/tus')) return;
    if (req.method() === 'PATCH') patches.push({ url: req.url(), offset: Number(req.headers()['upload-offset']) });
    if (req.method() === 'POST') creates.push(req.url());
  });
  let uploadUrl = '';
  page.on('response', (res) => {
    if (res.request().method() === 'POST' && res.url().endsWith('/v1/uploads/tus') && res.status() === 201)
      uploadUrl = new URL(res.headers()['location']!, res.url()).href;
  });
  const serverOffset = async () => Number((await page.request.head(uploadUrl, { headers: { 'Tus-Resumable': '1.0.0' } })).headers()['upload-offset']);

  await page.goto('/datasets');
  await slowUploads(page, 350);
  const dialog = await createThroughDialog(page, SHAPES, /YOLO layout/);
  await dialog.getByRole('button', { name: 'Create and upload' }).click();
  const card = page.getByTestId('dataset-card').filter({ hasText: 'shapes3' });
  await expect(card.getByTestId('upload-progress')).toBeVisible();
  const id = await datasetIdOf(page, 'shapes3');

  // Leaving the page while it uploads: 'Files still uploading', View goes to /active-jobs.
  await page.getByTestId('sidebar').getByRole('link', { name: 'Home', exact: true }).click();
  const notice = page.getByTestId('notification').filter({ hasText: 'Files still uploading' });
  await expect(notice).toBeVisible();
  await notice.getByRole('button', { name: 'View' }).click();
  await expect(page).toHaveURL(/\/active-jobs$/);
  const job = page.getByTestId('job-upload').filter({ hasText: 'shapes3' });
  await expect(job.getByTestId('upload-progress')).toBeVisible();
  await expect.poll(async () => parseInt((await job.getByTestId('upload-percent').textContent()) ?? '0', 10)).toBeGreaterThanOrEqual(15);

  // pause: the server's offset stops growing
  await job.getByRole('button', { name: 'Pause upload shapes3.zip' }).click();
  await expect(job.getByTestId('upload-progress')).toHaveAttribute('data-status', 'paused');
  await shot(page, '08-active-jobs-paused');
  expect(uploadUrl).toMatch(/\/v1\/uploads\/tus\/\w+/);
  const pausedAt = await serverOffset();
  expect(pausedAt).toBeGreaterThan(0);
  expect(pausedAt).toBeLessThan(original.length);
  await page.waitForTimeout(1200);
  expect(await serverOffset()).toBe(pausedAt);

  // resume: the next PATCH starts at the server's offset
  const before = patches.length;
  await job.getByRole('button', { name: 'Resume upload shapes3.zip' }).click();
  await expect.poll(() => patches.length).toBeGreaterThan(before);
  expect(patches[before]!.offset).toBe(pausedAt);
  await expect.poll(serverOffset).toBeGreaterThan(pausedAt + 256 * 1024);

  // a reload mid-upload (the leave prompt asks first); then the same file resumes from the stored fingerprint
  await job.getByRole('link', { name: 'Open shapes3' }).click();
  await expect(page).toHaveURL(new RegExp(`/datasets/${id}$`));
  await expect(page.getByTestId('upload-progress')).toBeVisible();
  const prompts: string[] = [];
  page.on('dialog', (d) => {
    prompts.push(d.type());
    void d.accept();
  });
  await page.reload();
  expect(prompts).toEqual(['beforeunload']);
  const reloadedAt = await serverOffset();
  expect(reloadedAt).toBeGreaterThan(pausedAt);
  expect(reloadedAt).toBeLessThan(original.length);
  const panel = page.getByTestId('archive-panel');
  await expect(panel).toContainText('The upload was interrupted');
  await expect(panel).toContainText(`shapes3.zip stopped after ${(reloadedAt / 1024 ** 2).toFixed(1)} MB of 3.5 MB`);
  await shot(page, '09-interrupted');
  const createsBefore = creates.length;
  const patchesBefore = patches.length;
  await panel.locator('input[type=file]').setInputFiles(SHAPES);
  await expect.poll(() => patches.length).toBeGreaterThan(patchesBefore);
  expect(patches[patchesBefore]!.offset).toBe(reloadedAt);
  expect(creates.length).toBe(createsBefore); // resumed, not started over
  await expect(page.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Ready', { timeout: 90_000 });

  // every byte arrived: the stored archive is the file
  const { url } = (await (await page.request.get(`/v1/datasets/${id}/download`)).json()).data as { url: string };
  const stored = await page.request.get(url);
  expect(stored.status()).toBe(200);
  const bytes = await stored.body();
  expect(bytes.length).toBe(original.length);
  expect(sha256(bytes)).toBe(sha256(original));
});

test('a broken archive fails with the per-file, per-line report, downloadable as text', async ({ page, request }) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'broken');
  await signIn(page, user);
  const png = fs.readFileSync(path.join(FIXTURES, 'test-images/test_0000.png'));
  // The browser's check runs the server's rules and would refuse this archive before upload (ADR 0029):
  // it arrives over the API, as from a script, and its only train pair is left out, so nothing is usable.
  const zip = buildZip([
    { name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' },
    { name: 'images/train/x.png', data: png },
    { name: 'labels/train/x.txt', data: '0 0.5 0.5 0.2 0.2\n7 0.5 0.5 0.2 0.2\n0 0.5 0.5\n' },
    { name: 'images/val/y.png', data: png },
    { name: 'labels/val/y.txt', data: '1 0.5 0.5 0.1 0.1\n' },
  ]);
  const me = (await (await page.request.get('/v1/users/me')).json()).data;
  const id = await uploadDatasetViaApi(page.request, me.id, 'Broken labels', 'detect', 'broken.zip', zip);

  await page.goto('/datasets');
  const card = page.getByTestId('dataset-card').filter({ hasText: 'Broken labels' });
  await expect(card.getByTestId('dataset-status')).toHaveAttribute('data-status', 'Failed', { timeout: 60_000 });
  await card.getByTestId('dataset-name').click();
  await expect(page).toHaveURL(new RegExp(`/datasets/${id}$`));

  await expect(page.getByTestId('failed-alert')).toContainText('dataset/nothing-usable');
  await expect(page.getByRole('tab', { name: /Errors & warnings/ })).toHaveAttribute('aria-selected', 'true');
  const rows = page.getByTestId('report-row');
  const x = rows.filter({ hasText: 'labels/train/x.txt' });
  await expect(x).toHaveCount(1);
  await expect(x).toHaveAttribute('data-image', 'images/train/x.png');
  await expect(x.locator('td').nth(2)).toHaveText('2');
  // The same archive would fail the same way: no Retry, only a fixed upload.
  await expect(page.getByTestId('retry')).toHaveCount(0);
  await expect(page.getByTestId('archive-panel')).toContainText('Fix the archive and upload it again');
  await expect(page.getByTestId('archive-panel')).toContainText('would fail the same way');
  await shot(page, '10-report');
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Filter the report').fill('x.txt:2');
  await expect(rows).toHaveCount(1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download .txt' }).click()]);
  expect(download.suggestedFilename()).toBe('broken-report.txt');
  const text = fs.readFileSync((await download.path())!, 'utf8');
  expect(text).toContain('Result: FAILED');
  expect(text).toContain('1 image left out');
  expect(text).toContain('labels/train/x.txt:2');
});
