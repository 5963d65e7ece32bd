import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models');
const SCREENSHOTS = path.resolve(import.meta.dirname, '../screenshots');

async function signIn(page: Page, user: { email: string; password: string }) {
  const res = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
}

test('Preview: the uploaded ONNX model runs on an image and the overlay draws labelled boxes', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'infer');
  await signIn(page, user);
  // The model upload of spec §7 (multipart model_name, project_name, file), with the page's cookies.
  const upload = await page.request.post('/v1/models/upload', {
    multipart: {
      model_name: 'shapes3 detector',
      project_name: 'Inference e2e',
      file: { name: 'shapes3-detect.onnx', mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(FIXTURES, 'shapes3-detect.onnx')) },
    },
  });
  expect(upload.status()).toBe(201);
  const modelId = ((await upload.json()) as { data: { id: string } }).data.id;

  await page.setViewportSize({ width: 1280, height: 1500 });
  await page.goto(`/models/${modelId}`);
  await page.getByRole('tab', { name: 'Preview' }).click();
  const panel = page.getByTestId('preview-panel');
  await expect(panel).toBeVisible();

  await panel.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(path.join(FIXTURES, 'test-images/test_0003.png'));

  const overlay = panel.getByTestId('prediction-overlay');
  await expect(overlay).toBeVisible();
  const boxes = overlay.getByTestId('prediction-box');
  await expect(boxes.first()).toBeVisible();
  const classes = await boxes.evaluateAll((els) => els.map((e) => e.getAttribute('data-class')));
  expect(classes.length).toBeGreaterThanOrEqual(1);
  expect(classes.some((c) => c === 'red_square' || c === 'green_circle')).toBe(true);
  // Every box has its label, the class name and the confidence.
  const labels = await overlay.getByTestId('prediction-label').allTextContents();
  expect(labels).toHaveLength(classes.length);
  for (const label of labels) expect(label).toMatch(/^(red_square|green_circle|blue_triangle) 0\.\d\d$/);

  // The boxes sit on the image, scaled to its displayed size (320×240 pixels shown larger here).
  const image = await panel.getByTestId('prediction-image').locator('img').boundingBox();
  const svg = await overlay.boundingBox();
  expect(svg && image && Math.abs(svg.width - image.width) < 1 && Math.abs(svg.height - image.height) < 1).toBe(true);
  const first = await boxes.first().locator('rect').first().boundingBox();
  expect(first!.x).toBeGreaterThanOrEqual(image!.x - 1);
  expect(first!.x + first!.width).toBeLessThanOrEqual(image!.x + image!.width + 1);

  await expect(panel.getByTestId('detections-table')).toContainText(/red_square|green_circle/);
  await expect(panel.getByTestId('predict-speed')).toContainText('inference');
  await expect(panel.getByTestId('rate-limit')).toContainText('calls left this hour');
  await expect(panel.getByTestId('predict-snippet')).toContainText(`/v1/predict/${modelId}`);

  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'inference-preview.png') });

  // The usage shows up per key in settings (the web app's calls count as the session).
  await page.goto('/settings?tab=api-keys');
  await expect(page.getByTestId('inference-usage')).toContainText('1 of 1,000 calls this month');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'inference-usage.png') });
});
