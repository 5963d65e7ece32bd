import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';
import { datasetWithUpload, ONNX, SHAPES, waitForDataset } from '../support/seed';

const BASE = `http://localhost:${Number(process.env.E2E_PORT ?? 3100)}`;
const SCREENSHOTS = path.resolve(import.meta.dirname, '../screenshots');

/** A stored zip of every file under `dir` (names relative to it). */
function zipDir(dir: string): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  let count = 0;
  for (const rel of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, rel);
    if (!fs.statSync(file).isFile()) continue;
    const name = Buffer.from(rel.split(path.sep).join('/'));
    const data = fs.readFileSync(file);
    const crc = zlib.crc32(data) >>> 0;
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(20, 4);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(data.length, 18);
    h.writeUInt32LE(data.length, 22);
    h.writeUInt16LE(name.length, 26);
    parts.push(h, name, data);
    const c = Buffer.alloc(46);
    c.writeUInt32LE(0x02014b50, 0);
    c.writeUInt16LE(20, 4);
    c.writeUInt16LE(20, 6);
    c.writeUInt32LE(crc, 16);
    c.writeUInt32LE(data.length, 20);
    c.writeUInt32LE(data.length, 24);
    c.writeUInt16LE(name.length, 28);
    c.writeUInt32LE(offset, 42);
    central.push(c, name);
    offset += 30 + name.length + data.length;
    count += 1;
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

/** shapes3 with the labels of three test images taken away: what the model finds there are false positives. */
function shapesWithMissingLabels(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-eval-e2e-'));
  execFileSync('unzip', ['-qo', SHAPES, '-d', path.join(dir, 'src')]);
  const labels = path.join(dir, 'src', 'shapes3', 'labels', 'test');
  for (const f of fs.readdirSync(labels).sort().slice(0, 3)) fs.writeFileSync(path.join(labels, f), '');
  const out = path.join(dir, 'shapes3-missing.zip');
  fs.writeFileSync(out, zipDir(path.join(dir, 'src')));
  return out;
}

async function check(page: Page, width: number, modelId: string) {
  await page.setViewportSize({ width, height: width < 500 ? 844 : 1000 });
  await page.goto(`/models/${modelId}?tab=evaluate`);
  const current = page.getByTestId('eval-current');
  await expect(current).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await expect(page.getByTestId('eval-confusion-chart')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('[data-curve="pr"]')).toBeVisible();
  await expect(page.getByTestId('eval-class-table')).toContainText('red_square');
  // A false positive opens in the dataset lightbox, the prediction dashed over the labels.
  const first = page.getByTestId('eval-mistake').first();
  await first.scrollIntoViewIfNeeded();
  await first.click();
  const lightbox = page.getByTestId('lightbox');
  await expect(lightbox.getByTestId('eval-lightbox-caption')).toContainText('False positive');
  await expect(lightbox.getByTestId('lightbox-prediction-box').first()).toBeVisible();
  await expect(lightbox.getByTestId('lightbox-image')).toBeVisible();
  await page.waitForTimeout(400); // the modal's fade-in, for the screenshots
}

test('a user evaluates a model, sees the confusion matrix and PR curve, and opens a false positive in the lightbox (390 and 1440 px)', async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  const user = await createVerifiedUser(request, 'evaluate');
  expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const uid = (await (await page.request.get('/v1/users/me')).json()).data.id as string;
  const upload = await page.request.post('/v1/models/upload', {
    multipart: {
      model_name: 'shapes3 detector',
      project_name: 'Evaluation e2e',
      file: { name: 'shapes3-detect.onnx', mimeType: 'application/octet-stream', buffer: fs.readFileSync(ONNX) },
    },
  });
  expect(upload.status()).toBe(201);
  const modelId = ((await upload.json()) as { data: { id: string } }).data.id;
  const dataset = await datasetWithUpload(page.request, BASE, uid, 'shapes missing labels', shapesWithMissingLabels());
  await dataset.finish();
  await waitForDataset(page.request, BASE, dataset.id);

  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/models/${modelId}?tab=evaluate`);
  await expect(page.getByTestId('eval-dataset')).toHaveValue('shapes missing labels');
  // The page settles first: on a busy machine a click on Test made while it loaded was lost once (still Val, nothing started).
  await page.waitForLoadState('networkidle');
  await page.getByTestId('eval-split').getByText('Test').click();
  await expect(page.getByTestId('eval-split').getByRole('radio', { name: 'Test' })).toBeChecked();
  await page.getByTestId('eval-start').click();
  await check(page, 1440, modelId);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'evaluation-1440-light.png'), fullPage: false });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('lightbox')).toBeHidden();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'evaluation-1440-results-light.png'), fullPage: true });

  await check(page, 390, modelId);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'evaluation-390-light.png') });
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('lightbox')).toBeHidden();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'evaluation-390-results-light.png'), fullPage: true });

  await page.addInitScript(() => localStorage.setItem('sightline.color-scheme', 'dark'));
  await check(page, 1440, modelId);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('lightbox')).toBeHidden();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'evaluation-1440-results-dark.png'), fullPage: true });
  await check(page, 390, modelId);
  await page.screenshot({ path: path.join(SCREENSHOTS, 'evaluation-390-dark.png') });

  // Compare on the project page: a second model of the project evaluated on the same split.
  const projectId = (await (await page.request.get(`/v1/models/${modelId}`)).json()).data.project.id as string;
  const second = await page.request.post('/v1/models/upload', {
    multipart: {
      model_name: 'second detector',
      project_id: projectId,
      file: { name: 'shapes3-detect.onnx', mimeType: 'application/octet-stream', buffer: fs.readFileSync(ONNX) },
    },
  });
  expect(second.status()).toBe(201);
  const secondId = ((await second.json()) as { data: { id: string } }).data.id;
  const started = await page.request.post(`/v1/models/${secondId}/evaluations`, { data: { datasetId: dataset.id, split: 'test' } });
  expect(started.status()).toBe(202);
  const evaluationId = (await started.json()).data.id as string;
  await expect.poll(async () => (await (await page.request.get(`/v1/evaluations/${evaluationId}`)).json()).data.status, { timeout: 20_000 }).toBe('completed');
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto(`/projects/${projectId}`);
  const compare = page.getByTestId('eval-compare-table');
  await expect(compare).toContainText('shapes3 detector');
  await expect(compare).toContainText('second detector');
  await expect(page.getByTestId('eval-compare-pr').locator('[data-ready]')).toBeVisible();
  await page.getByTestId('project-eval-compare').scrollIntoViewIfNeeded();
  await page.screenshot({ path: path.join(SCREENSHOTS, 'evaluation-compare-1440-dark.png') });
});
