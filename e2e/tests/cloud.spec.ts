import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { uniqueUser } from '../support/api';
import { startServer, type SpawnedServer } from '../support/fake-stripe';

/**
 * Cloud training and exports end to end: this spec's own server (its first account is the admin),
 * a real `sightline-agent` process running the stand-in `yolo` (apps/agent/test/yolo-standin.mjs)
 * and the stand-in nvidia-smi (one RTX 4090). The admin sets a GPU type and makes the agent token
 * on the admin page; a pro user starts cloud training from the train dialog, watches epochs and
 * cost arrive, stops it; then requests an ONNX export, reads its log and size, and previews it.
 */
const ROOT = path.resolve(import.meta.dirname, '../..');
const FIXTURES = path.resolve(ROOT, '../shared/fixtures/models');
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
const PORT = Number(process.env.E2E_PORT ?? 3100) + 5;

/**
 * E2E_CLOUD_DATABASE_URL (e.g. postgres://postgres@127.0.0.1/test) runs this spec's server on a
 * PostgreSQL server in a fresh schema instead of the embedded database.
 */
const db: Record<string, string> = process.env.E2E_CLOUD_DATABASE_URL
  ? { DATABASE_URL: process.env.E2E_CLOUD_DATABASE_URL, DATABASE_SCHEMA: `e2e_cloud_${Date.now().toString(36)}` }
  : {};

let server: SpawnedServer;
let agent: ChildProcess | null = null;
let agentLog = '';

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer(PORT, { AGENT_LEASE_SECONDS: '6', ...db });
});
test.afterAll(async () => {
  agent?.kill('SIGTERM');
  await server?.close();
});

async function newPage(browser: Browser, width = 1440, height = 1000) {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

async function signUp(page: Page, prefix: string) {
  const user = uniqueUser(prefix);
  const res = await page.request.post(`${server.url}/v1/auth/signup`, { data: user });
  expect(res.status()).toBe(201);
  const me = ((await (await page.request.get(`${server.url}/v1/users/me`)).json()) as { data: { id: string } }).data;
  return { ...user, id: me.id };
}

function startAgent(token: string) {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-e2e-agent-'));
  agent = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'apps/agent/src/cli.ts',
      '--hub',
      server.url,
      '--token',
      token,
      '--yolo',
      path.join(ROOT, 'apps/agent/test/yolo-standin.mjs'),
      '--work-dir',
      workDir,
    ],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PATH: `${path.join(ROOT, 'apps/agent/test/bin')}:${process.env.PATH}`,
        STANDIN_EPOCH_MS: '2500',
        STANDIN_ONNX: path.join(FIXTURES, 'shapes3-detect.onnx'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  agent.stdout!.on('data', (b: Buffer) => (agentLog += b.toString()));
  agent.stderr!.on('data', (b: Buffer) => (agentLog += b.toString()));
  process.once('exit', () => agent?.kill('SIGKILL'));
}

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A processed dataset through the public API (tus upload, process, wait for Ready). */
async function processedDataset(api: APIRequestContext, uid: string) {
  const base = server.url;
  const created = await api.post(`${base}/v1/datasets`, { data: { meta: { name: 'shapes3' }, task: 'detect' } });
  const { id } = ((await created.json()) as { data: { id: string } }).data;
  const zip = fs.readFileSync(path.join(FIXTURES, 'shapes3.zip'));
  const token = await api.post(`${base}/v1/uploads/token`, { data: { path: `users/${uid}/datasets/${id}/shapes3.zip`, bytes: zip.length } });
  const create = await api.post(`${base}/v1/uploads/tus`, {
    headers: {
      'tus-resumable': '1.0.0',
      'upload-length': String(zip.length),
      'upload-metadata': `token ${b64(((await token.json()) as { data: { token: string } }).data.token)},filename ${b64('shapes3.zip')}`,
    },
  });
  expect(create.status()).toBe(201);
  const location = create.headers().location!;
  const url = location.startsWith('http') ? location : `${base}${location}`;
  const res = await api.patch(url, {
    headers: { 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
    data: zip,
  });
  expect(res.status()).toBe(204);
  expect((await api.post(`${base}/v1/datasets/${id}/process`, { data: {} })).status()).toBe(202);
  await expect
    .poll(async () => ((await (await api.get(`${base}/v1/datasets/${id}`)).json()) as { data: { status: string } }).data.status, {
      timeout: 60_000,
      intervals: [500],
    })
    .toBe('Ready');
}

const dollars = (text: string | null) => Number((text ?? '').replace(/[^\d.]/g, ''));

test('admin sets a GPU type and an agent token; the agent comes online', async ({ browser }) => {
  const admin = await newPage(browser);
  await signUp(admin, 'cloudadmin'); // first account: admin
  expect((await admin.request.patch(`${server.url}/v1/config/flags`, { data: { cloudTraining: true } })).status()).toBe(200);
  await admin.goto(`${server.url}/admin`);
  const section = admin.getByTestId('admin-agents');
  await section.scrollIntoViewIfNeeded();
  const form = section.getByTestId('gpu-type-form');
  await form.getByLabel('Id', { exact: true }).fill('rtx-4090');
  await form.getByLabel('Name', { exact: true }).fill('RTX 4090');
  await form.getByLabel('Matches nvidia-smi name').fill('RTX 4090');
  await form.getByLabel('USD per hour').fill('3.6');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(section.getByTestId('gpu-types-table')).toContainText('$3.60/h');

  await section.getByTestId('agent-name').fill('gpu-e2e');
  await section.getByTestId('agent-create').click();
  const tokenText = await section.getByTestId('agent-token').textContent();
  const token = /sla_[0-9a-f]{40}/.exec(tokenText ?? '')?.[0];
  expect(token).toBeTruthy();
  startAgent(token!);
  const row = section.getByTestId('agents-table').getByRole('row', { name: /gpu-e2e/ });
  await expect(row).toContainText('online', { timeout: 30_000 });
  await expect(row).toContainText('NVIDIA GeForce RTX 4090');
  await expect(row).toContainText('ultralytics 8.4.190');
  await expect(
    section
      .getByTestId('gpu-types-table')
      .getByRole('row', { name: /RTX 4090/ })
      .getByRole('cell')
      .nth(3),
  ).toHaveText('1', { timeout: 15_000 });
  await section.screenshot({ path: path.join(SHOTS, 'cloud-admin-agents-1440.png') });
  await admin.setViewportSize({ width: 390, height: 900 });
  await section.screenshot({ path: path.join(SHOTS, 'cloud-admin-agents-390.png') });

  // A pro user with $50 (billing off: the admin sets the plan and credits the wallet).
  const userPage = await newPage(browser);
  const user = await signUp(userPage, 'clouduser');
  expect(
    (await admin.request.post(`${server.url}/v1/admin/billing/users/${user.id}/plan`, { data: { plan: 'pro', reason: 'e2e cloud training' } })).status(),
  ).toBe(200);
  expect(
    (await admin.request.post(`${server.url}/v1/admin/billing/users/${user.id}/credit`, { data: { amount: 50, reason: 'e2e cloud training' } })).status(),
  ).toBe(200);
  await userPage.context().storageState({ path: path.join(os.tmpdir(), `cloud-user-${PORT}.json`) });
  await userPage.close();
  await admin.close();
});

test('cloud training from the train dialog: epochs and cost arrive live, Stop cancels it', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 1440, height: 1100 }, storageState: path.join(os.tmpdir(), `cloud-user-${PORT}.json`) });
  const page = await context.newPage();
  const me = ((await (await page.request.get(`${server.url}/v1/users/me`)).json()) as { data: { id: string } }).data;
  await processedDataset(page.request, me.id);

  await page.goto(`${server.url}/models`);
  await page.getByRole('button', { name: 'Train model' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Train a model' });
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByRole('radio', { name: /shapes3/ }).click();
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('New project name').fill('Cloud');
  await dialog.getByLabel('Model name').fill('cloud run');
  await dialog.getByRole('button', { name: 'Next' }).click();
  await dialog.getByLabel('Epochs').fill('10');
  await dialog.getByRole('button', { name: 'Create model' }).click();
  await expect(dialog.getByText('Model “cloud run” created')).toBeVisible();

  // The cloud option: GPU type with its rate and the agent online, the estimate, start.
  await dialog.getByTestId('cloud-training-option').click();
  const form = dialog.getByTestId('cloud-training-form');
  await expect(form.getByTestId('cloud-gpu-type')).toHaveValue(/RTX 4090 · \$3\.60\/h · 1 online/);
  await expect(form.getByTestId('cloud-estimate')).toContainText('for 10 epochs');
  await form.getByTestId('cloud-start').click();
  await expect(dialog.getByTestId('cloud-run')).toBeVisible();
  await dialog.getByRole('button', { name: 'Open model' }).click();

  await page.getByRole('tab', { name: 'Training' }).click();
  const card = page.getByTestId('cloud-run');
  await expect(card.getByTestId('cloud-run-status')).toHaveText('Running', { timeout: 30_000 });
  // Epochs arrive over the Platform protocol from the agent's yolo; each is charged as it ends.
  await expect(card.getByTestId('cloud-epochs')).toHaveText(/^[1-9] \/ 10$/, { timeout: 30_000 });
  const firstCost = dollars(await card.getByTestId('cloud-cost').textContent());
  expect(firstCost).toBeGreaterThan(0);
  await expect(card.getByTestId('cloud-epochs')).toHaveText(/^([2-9]) \/ 10$/, { timeout: 30_000 });
  await expect.poll(async () => dollars(await card.getByTestId('cloud-cost').textContent()), { timeout: 15_000 }).toBeGreaterThan(firstCost);
  // The same run on the Training panel: the model trains, reported by the agent's yolo over the Platform protocol.
  await expect(page.getByTestId('training-panel')).toHaveAttribute('data-status', 'Training');
  await page.screenshot({ path: path.join(SHOTS, 'cloud-training-1440.png'), fullPage: true });

  await card.getByTestId('cloud-stop').click();
  await expect(card.getByTestId('cloud-run-status')).toHaveText('Stopped', { timeout: 30_000 });
  await expect.poll(() => agentLog.includes('stop requested by the hub, signalling yolo')).toBe(true);
  const epochsCharged = Number(((await card.getByTestId('cloud-epochs').textContent()) ?? '').split('/')[0]);
  expect(epochsCharged).toBeGreaterThanOrEqual(2);
  expect(epochsCharged).toBeLessThan(10);
  await page.setViewportSize({ width: 390, height: 900 });
  await card.screenshot({ path: path.join(SHOTS, 'cloud-run-390.png') });
  await context.close();
});

test('ONNX export of an uploaded model, queued by itself: its log and size, then Preview runs on it', async ({ browser }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ viewport: { width: 1440, height: 1300 }, storageState: path.join(os.tmpdir(), `cloud-user-${PORT}.json`) });
  const page = await context.newPage();
  const upload = await page.request.post(`${server.url}/v1/models/upload`, {
    multipart: {
      model_name: 'shapes3 weights',
      project_name: 'Exports e2e',
      file: { name: 'shapes3-detect.pt', mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(FIXTURES, 'shapes3-detect.pt')) },
    },
  });
  expect(upload.status()).toBe(201);
  const modelId = ((await upload.json()) as { data: { id: string } }).data.id;

  await page.goto(`${server.url}/models/${modelId}?tab=deploy`);
  const exportsCard = page.getByTestId('model-exports');
  await expect(exportsCard.getByTestId('export-format')).toHaveValue(/ONNX/);
  // The upload queued its ONNX export by itself (ADR 0022): nobody presses Export.
  const row = exportsCard.getByTestId('export-row-onnx');
  await expect(row).toHaveAttribute('data-status', 'succeeded', { timeout: 45_000 });
  const size = fs.statSync(path.join(FIXTURES, 'shapes3-detect.onnx')).size;
  await expect(row.getByTestId('export-size')).toHaveText(new RegExp(`^${(size / 1024 / 1024).toFixed(1)} MB$|KB$`));
  await row.getByTestId('export-log-button').click();
  const log = page.getByTestId('export-log');
  await expect(log).toContainText('ONNX: export success');
  await expect(log).toContainText('[agent] uploading best.onnx');
  await page.screenshot({ path: path.join(SHOTS, 'cloud-export-log-1440.png') });
  await page.keyboard.press('Escape');
  await exportsCard.screenshot({ path: path.join(SHOTS, 'cloud-exports-1440.png') });

  await page.getByRole('tab', { name: 'Preview' }).click();
  const panel = page.getByTestId('preview-panel');
  await panel.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(path.join(FIXTURES, 'test-images/test_0003.png'));
  await expect(panel.getByTestId('prediction-overlay').getByTestId('prediction-box').first()).toBeVisible({ timeout: 30_000 });

  await page.setViewportSize({ width: 390, height: 900 });
  await page.getByRole('tab', { name: 'Deploy' }).click();
  await exportsCard.screenshot({ path: path.join(SHOTS, 'cloud-exports-390.png') });
  await context.close();
});
