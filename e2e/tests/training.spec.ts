import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models');
const SCREENSHOTS = path.resolve(import.meta.dirname, '../screenshots');
const LIVE = { timeout: 30_000 };

async function signIn(page: Page, user: { email: string; password: string }) {
  const res = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A processed dataset through the public API: create, upload token, tus create + PATCHes, process, wait for Ready. */
async function processedDataset(api: APIRequestContext, uid: string, name: string) {
  const created = await api.post('/v1/datasets', { data: { meta: { name }, task: 'detect' } });
  expect(created.status()).toBe(201);
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  const zip = fs.readFileSync(path.join(FIXTURES, 'shapes3.zip'));
  const token = await api.post('/v1/uploads/token', { data: { path: `users/${uid}/datasets/${id}/shapes3.zip`, bytes: zip.length } });
  expect(token.status()).toBe(200);
  const create = await api.post('/v1/uploads/tus', {
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(zip.length),
      'upload-metadata': `token ${b64(((await token.json()) as { data: { token: string } }).data.token)},filename ${b64('shapes3.zip')}`,
    },
  });
  expect(create.status()).toBe(201);
  const location = create.headers().location!;
  const url = location.startsWith('http') ? new URL(location).pathname : location;
  const CHUNK = 512 * 1024;
  for (let offset = 0; offset < zip.length; offset += CHUNK) {
    const res = await api.patch(url, {
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream' },
      data: zip.subarray(offset, offset + CHUNK),
    });
    expect(res.status()).toBe(204);
  }
  expect((await api.post(`/v1/datasets/${id}/process`, { data: {} })).status()).toBe(202);
  await expect
    .poll(async () => ((await (await api.get(`/v1/datasets/${id}`)).json()) as { data: { status: string } }).data.status, { timeout: 60_000, intervals: [500] })
    .toBe('Ready');
  return id;
}

test('train dialog → copied setup → a Platform client run moves the Training tab live', async ({ page, request, context, playwright, baseURL }) => {
  test.setTimeout(240_000);
  const user = await createVerifiedUser(request, 'train');
  await signIn(page, user);
  const me = ((await (await page.request.get('/v1/users/me')).json()) as { data: { id: string; username: string } }).data;
  await processedDataset(page.request, me.id, 'shapes3');
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.setViewportSize({ width: 1280, height: 1000 });
  const tall = { width: 1280, height: 1800 };

  // The dialog: dataset → model (new project inline) → config.
  await page.goto('/models');
  await page.getByRole('button', { name: 'Train model' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Train a model' });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await expect(dialog.getByText('Choose a dataset')).toBeVisible();
  await dialog.getByRole('radio', { name: /shapes3/ }).click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('New project name').fill('Pets');
  await dialog.getByLabel('Model name').fill('e2e run');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('Epochs').fill('3');
  await dialog.getByLabel('Image size').fill('320');
  await dialog.getByRole('button', { name: 'Create model' }).click();
  await expect(dialog.getByText('Model “e2e run” created')).toBeVisible();
  await expect(dialog.getByTestId('cloud-training-option')).toHaveAttribute('aria-disabled', 'true');

  // A key made here fills the snippet; it stays masked until revealed; Copy takes the real text.
  await dialog.getByRole('button', { name: 'Create a new key' }).click();
  const snippet = dialog.getByTestId('platform-snippet');
  await expect(snippet).toContainText(/ULTRALYTICS_API_KEY=ul_[0-9a-f]{3}•+/);
  await dialog.getByRole('button', { name: 'Copy: Setup for current ultralytics clients' }).click();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  const key = /ULTRALYTICS_API_KEY=(ul_[0-9a-f]{40})/.exec(copied)?.[1];
  expect(key, copied).toBeTruthy();
  expect(copied).toContain(`export ULTRALYTICS_PLATFORM_URL=${baseURL}`);
  const train = copied.split('\n').find((l) => l.startsWith('yolo train '))!;
  expect(train).toMatch(
    new RegExp(
      `^yolo train model=yolo11n\\.pt data=ul://${me.username}/datasets/shapes3 epochs=3 imgsz=320 batch=-1 patience=100 project=${me.username}/pets name=e2e-run$`,
    ),
  );
  await dialog.getByRole('button', { name: 'Show key' }).click();
  await expect(snippet).toContainText(key!);
  await dialog.getByRole('tab', { name: /Older clients/ }).click();
  await expect(dialog.getByTestId('legacy-snippet')).toContainText(`yolo login ${key!.replace('ul_', 'ul')}`);
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'training-dialog-snippets.png') });

  await dialog.getByRole('button', { name: 'Open model' }).click();
  await expect(page).toHaveURL(/\/models\/[A-Za-z0-9]{20}$/);
  const dialogModelId = new URL(page.url()).pathname.split('/').pop()!;
  await page.getByRole('tab', { name: 'Training' }).click();
  const panel = page.getByTestId('training-panel');
  await page.setViewportSize(tall);
  await expect(panel).toHaveAttribute('data-status', 'New');
  await expect(panel.getByTestId('platform-snippet')).toContainText(`name=e2e-run`);

  // The user's client runs the copied command: replay what ultralytics ≥ 8.4.120 sends (platform-protocol §4).
  const client = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { Authorization: `Bearer ${key}` } });
  const arg = (name: string) => new RegExp(`${name}=(\\S+)`).exec(train)![1]!;
  const webhook = async (body: object) => {
    const res = await client.post('/api/webhooks/training/metrics', { data: body });
    expect(res.status(), await res.text()).toBe(200);
    return (await res.json()) as Record<string, unknown>;
  };
  const started = await webhook({
    event: 'training_started',
    project: arg('project'),
    name: arg('name'),
    data: {
      trainArgs: {
        task: 'detect',
        mode: 'train',
        model: arg('model'),
        data: arg('data'),
        epochs: '3',
        imgsz: '320',
        batch: '-1',
        patience: '100',
        project: arg('project'),
        name: arg('name'),
        device: 'None',
        cache: 'False',
      },
      epochs: 3,
      device: 'cpu',
      environment: { ultralyticsVersion: '8.4.120', hostname: 'e2e', os: 'Linux', pythonVersion: '3.11.9' },
    },
  });
  const modelId = String(started.modelId);
  const runId = String(started.runId);
  // The run reports into the model the dialog made (same project and name), live on the open page.
  expect(modelId, `training_started made another model (slug ${String(started.modelSlug)}) instead of reporting into the dialog's model`).toBe(dialogModelId);

  await expect(panel).toHaveAttribute('data-status', 'Training', LIVE);
  await expect(panel.getByTestId('heartbeat')).toContainText('Last heard from the client');
  await expect(panel.getByRole('button', { name: 'Stop training' })).toBeVisible();

  const losses = [1.9, 1.4, 1.1];
  for (let epoch = 0; epoch < 3; epoch++) {
    await webhook({
      event: 'console_output',
      modelId,
      data: {
        chunkId: epoch + 1,
        lineCount: 2,
        content: `[2026-05-01 12:0${epoch}:00] Epoch ${epoch + 1}/3 GPU_mem 0G box_loss ${losses[epoch]}\n[2026-05-01 12:0${epoch}:05] all 30 61 0.${5 + epoch} 0.${4 + epoch}`,
      },
    });
    const answer = await webhook({
      event: 'epoch_end',
      modelId,
      data: {
        epoch,
        metrics: {
          'train/box_loss': losses[epoch],
          'train/cls_loss': losses[epoch]! / 2,
          'val/box_loss': losses[epoch]! + 0.2,
          'metrics/precision(B)': 0.5 + epoch * 0.15,
          'metrics/recall(B)': 0.4 + epoch * 0.15,
          'metrics/mAP50(B)': 0.45 + epoch * 0.15,
          'metrics/mAP50-95(B)': 0.3 + epoch * 0.12,
          lr: 0.01,
        },
        system: { cpu: 40 },
        fitness: 0.3 + epoch * 0.12,
        ...(epoch === 0 ? { modelInfo: { parameters: 2_590_000, gflops: 6.4, speedMs: 1.1 } } : {}),
      },
    });
    expect(answer.cancelled).toBe(false);
    await expect(panel.getByTestId('epoch-progress')).toHaveText(`Epoch ${epoch + 1} of 3`, LIVE);
    await expect(panel.locator('[data-testid=metric-chart][data-group=mAP50-95]')).toHaveAttribute('data-epochs', String(epoch + 1), LIVE);
    await expect(panel.getByTestId('training-console')).toContainText(`Epoch ${epoch + 1}/3`, LIVE);
    if (epoch === 1) {
      await expect(panel.locator('[data-testid=metric-chart] [data-ready]').first()).toBeVisible();
      await page.screenshot({ path: path.join(SCREENSHOTS, 'training-live.png') });
    }
  }
  await expect(panel.getByTestId('metric-chart')).toHaveCount(5);

  // Final weights (signed upload URL + PUT + checkpoint_saved), then training_complete.
  const upload = (await (await client.post('/api/webhooks/models/upload', { data: { filename: 'best.pt', modelId, runId } })).json()) as {
    uploadUrl: string;
    gcsPath: string;
    uploadPath: string;
  };
  // The signed URL authorises itself: no key goes with the PUT.
  const put = await request.put(upload.uploadUrl, {
    headers: { 'content-type': 'application/octet-stream' },
    data: fs.readFileSync(path.join(FIXTURES, 'shapes3-detect.pt')),
  });
  expect(put.status()).toBe(200);
  await webhook({ event: 'checkpoint_saved', modelId, data: { modelPath: upload.gcsPath, runId, uploadPath: upload.uploadPath } });
  await webhook({
    event: 'training_complete',
    modelId,
    data: {
      results: {
        metrics: { 'metrics/precision(B)': 0.8, 'metrics/recall(B)': 0.7, 'metrics/mAP50(B)': 0.75, 'metrics/mAP50-95(B)': 0.54, fitness: 0.54 },
        bestEpoch: 2,
        bestFitness: 0.54,
        modelPath: upload.gcsPath,
      },
      classNames: ['red_square', 'green_circle', 'blue_triangle'],
      plots: [],
      runId,
    },
  });

  await expect(panel).toHaveAttribute('data-status', 'Trained', LIVE);
  const results = panel.getByTestId('final-results');
  await expect(results).toContainText('best epoch 3');
  await expect(results.getByTestId('final-metric').filter({ hasText: 'mAP50-95(B)' })).toContainText('0.540');
  await expect(results.getByTestId('download-best')).toHaveAttribute('href', /best|\.pt/);
  await expect(panel.getByTestId('heartbeat')).toContainText('Finished');
  await page.screenshot({ path: path.join(SCREENSHOTS, 'training-done.png') });
  await client.dispose();
});
