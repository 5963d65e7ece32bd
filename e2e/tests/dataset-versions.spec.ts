import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';
import { uploadDatasetViaApi } from '../support/dataset-upload';

/**
 * Datasets that evolve (ADR 0037, 0038): a user adds images to a split, renames a class, saves version 2, opens the diff
 * of version 1 and version 2 and sees the added images and the rename — at 1440 and 390 px, light and dark.
 */
const IMAGES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models/test-images');
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
fs.mkdirSync(SHOTS, { recursive: true });
const png = (n: number) => fs.readFileSync(path.join(IMAGES, `test_000${n}.png`));

/** A stored (uncompressed) zip, enough for a test archive. */
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

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).exclude('[data-testid=notification]').analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

for (const { width, height } of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`add images, rename a class, save version 2 and see both in the diff (${width} px)`, async ({ page, request }) => {
    test.setTimeout(180_000);
    await page.setViewportSize({ width, height });
    const user = await createVerifiedUser(request, `versions${width}`);
    expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
    const me = (await (await page.request.get('/v1/users/me')).json()).data;
    const zip = buildZip([
      { name: 'data.yaml', data: 'names: [circle, square]\ntrain: images/train\nval: images/val\n' },
      { name: 'images/train/a.png', data: png(0) },
      { name: 'labels/train/a.txt', data: '0 0.5 0.5 0.2 0.2\n' },
      { name: 'images/train/b.png', data: png(1) },
      { name: 'labels/train/b.txt', data: '1 0.3 0.3 0.2 0.2\n' },
      { name: 'images/val/c.png', data: png(2) },
      { name: 'labels/val/c.txt', data: '0 0.4 0.4 0.1 0.1\n' },
    ]);
    const id = await uploadDatasetViaApi(page.request, me.id, `Evolving ${width}`, 'detect', 'evolving.zip', zip);
    await expect.poll(async () => (await (await page.request.get(`/v1/datasets/${id}`)).json()).data.status, { timeout: 90_000 }).toBe('Ready');
    // Version 1 is saved when processing reaches Ready.
    await expect.poll(async () => (await (await page.request.get(`/v1/datasets/${id}/versions`)).json()).data?.length, { timeout: 30_000 }).toBe(1);

    await page.goto(`/datasets/${id}`);
    // The first page of a fresh server makes its previews on first view: give it time on a shared machine.
    await expect(page.getByTestId('image-tile')).toHaveCount(3, { timeout: 30_000 });

    // Add three labelled images to train, as files: the same report as an upload.
    await page.getByTestId('add-images').click();
    const add = page.getByRole('dialog', { name: 'Add images' });
    await add.locator('input[type=file]').setInputFiles([
      { name: 'night_1.png', mimeType: 'image/png', buffer: png(3) },
      { name: 'night_1.txt', mimeType: 'text/plain', buffer: Buffer.from('0 0.5 0.5 0.3 0.3\n') },
      { name: 'night_2.png', mimeType: 'image/png', buffer: png(4) },
      { name: 'night_2.txt', mimeType: 'text/plain', buffer: Buffer.from('1 0.5 0.5 0.3 0.3\n') },
      { name: 'night_3.png', mimeType: 'image/png', buffer: png(5) },
      { name: 'night_3.txt', mimeType: 'text/plain', buffer: Buffer.from('0 0.2 0.2 0.1 0.1\n') },
    ]);
    await add.getByTestId('add-submit').click();
    await expect(add.getByTestId('add-result')).toContainText('3 images added to Train');
    await add.getByRole('button', { name: 'Done' }).click();
    await expect(page.getByTestId('image-tile')).toHaveCount(6);

    // Rename circle → disc: labels keep their index, the class list changes.
    await page.getByTestId('edit-classes').click();
    const classes = page.getByRole('dialog', { name: 'Classes' });
    await classes.getByLabel('Name of class 0').fill('disc');
    await classes.getByRole('button', { name: 'Rename to disc' }).click();
    await expect(page.getByTestId('notification').filter({ hasText: 'Class circle renamed to disc.' })).toBeVisible();
    await page.keyboard.press('Escape');
    await page.screenshot({ path: path.join(SHOTS, `dataset-versions-${width}-images.png`), fullPage: true });

    // Save version 2 with a note.
    await page.getByRole('tab', { name: 'Versions' }).click();
    await expect(page.getByTestId('version-card')).toHaveCount(1);
    await page.getByTestId('save-version').click();
    await page.getByTestId('version-note-input').fill('Three night images, circle is now disc');
    await page.getByTestId('save-version-submit').click();
    await expect(page.getByTestId('version-card')).toHaveCount(2);
    await expect(page.getByTestId('version-card').first()).toHaveAttribute('data-version', '2');
    await expect(page.getByTestId('version-card').first()).toContainText('Three night images, circle is now disc');
    await expect(page.getByTestId('version-card').first()).toContainText('6 images');

    // The diff of version 1 and version 2: the three added images and the rename, the histogram of both.
    await page.getByTestId('open-diff').click();
    await expect(page).toHaveURL(/from=1&to=2/);
    const diff = page.getByTestId('version-diff');
    await expect(diff.getByTestId('diff-added')).toContainText('3 images added');
    await expect(diff.getByTestId('diff-added').getByTestId('diff-tile')).toHaveCount(3);
    for (const name of ['night_1.png', 'night_2.png', 'night_3.png']) await expect(diff.getByTestId('diff-added')).toContainText(name);
    await expect(diff.getByTestId('diff-renamed')).toContainText('circle');
    await expect(diff.getByTestId('diff-renamed')).toContainText('disc');
    await expect(diff.getByTestId('diff-histogram-chart')).toHaveAttribute('data-ready', 'true');
    await expect(diff.getByTestId('diff-histogram-table')).toContainText('disc');
    // Nothing runs off a phone's screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: path.join(SHOTS, `dataset-versions-${width}-diff.png`), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);

    // The same page in the dark theme.
    await page.evaluate(() => localStorage.setItem('sightline.color-scheme', 'dark'));
    await page.reload();
    await expect(page.getByTestId('diff-added').getByTestId('diff-tile')).toHaveCount(3, { timeout: 30_000 });
    await page.screenshot({ path: path.join(SHOTS, `dataset-versions-${width}-diff-dark.png`), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
  });
}
