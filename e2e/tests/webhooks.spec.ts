import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startServer, type SpawnedServer } from '../support/fake-stripe';
import { uniqueUser } from '../support/api';

/**
 * Outgoing webhooks in the web app (ADR 0016), on this spec's own server (the first account is its
 * admin): the admin allows private addresses in the admin section, a user adds a webhook in
 * Settings, copies the secret shown once, and sees the delivery of a real event (status code and
 * response time). Screenshots at 1440 and 390 px.
 */
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
const SERVER_PORT = Number(process.env.E2E_PORT ?? 3100) + 3;

let server: SpawnedServer;
const received: string[] = [];
const receiver = http.createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString('utf8')));
  req.on('end', () => {
    received.push(body);
    res.writeHead(200).end('ok');
  });
});
let receiverUrl = '';

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/sightline`;
  server = await startServer(SERVER_PORT, { WEBHOOK_RETRY_BASE_MS: '1000' });
});
test.afterAll(async () => {
  await server?.close();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

async function newPage(browser: Browser, width = 1440, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}
async function signUp(page: Page, prefix: string) {
  const user = uniqueUser(prefix);
  const res = await page.request.post(`${server.url}/v1/auth/signup`, { data: user });
  expect(res.status(), await res.text()).toBe(201);
  return user;
}

test('admin allows private addresses; a user adds a webhook, keeps the secret, sees a delivery', async ({ browser }) => {
  const adminPage = await newPage(browser);
  await signUp(adminPage, 'hookadmin');
  const userPage = await newPage(browser);
  await signUp(userPage, 'hookuser');

  // Refused while private addresses are off: the server's reason is shown at the URL field.
  await userPage.goto(`${server.url}/settings?tab=integrations`);
  const section = userPage.getByTestId('webhooks-section');
  await expect(section).toBeVisible();
  await section.getByLabel('Payload URL').fill(receiverUrl);
  await section.getByLabel('Model deleted').check();
  await section.getByRole('button', { name: 'Add webhook' }).click();
  await expect(section.getByText(/resolves to 127\.0\.0\.1/)).toBeVisible();

  await adminPage.goto(`${server.url}/admin`);
  const adminSection = adminPage.getByTestId('admin-webhooks');
  await expect(adminSection).toBeVisible();
  await expect(adminSection.getByLabel('Allow private addresses')).toBeEnabled();
  await adminSection.getByLabel('Allow private addresses').click({ force: true }); // controlled: checked once the server answers
  await expect(adminSection.getByLabel('Allow private addresses')).toBeChecked();

  await section.getByRole('button', { name: 'Add webhook' }).click();
  const secret = userPage.getByTestId('webhook-secret');
  await expect(secret).toContainText(/whsec_/);
  await userPage.screenshot({ path: path.join(SHOTS, 'webhooks-secret-1440.png') });
  await userPage.getByRole('button', { name: 'I have stored it' }).click();
  await expect(section.getByTestId('webhook-card')).toHaveCount(1);

  // A real event: the user deletes a model.
  const model = await userPage.request.post(`${server.url}/v1/models`, { data: { meta: { name: 'hooked' } } });
  expect(model.status()).toBe(201);
  expect((await userPage.request.delete(`${server.url}/v1/models/${(await model.json()).data.id}`)).status()).toBe(200);
  await expect.poll(() => received.length, { timeout: 20_000 }).toBe(1);
  expect(JSON.parse(received[0]!).type).toBe('model.deleted');

  await section.getByRole('button', { name: 'Deliveries' }).click();
  const row = section.getByTestId('webhook-delivery').first();
  await expect(row).toContainText('Delivered', { timeout: 15_000 });
  await expect(row).toContainText('200');
  await expect(row).toContainText(/\d+ ms/);
  await userPage.screenshot({ path: path.join(SHOTS, 'webhooks-settings-1440.png'), fullPage: true });
  await userPage.setViewportSize({ width: 390, height: 844 });
  await userPage.screenshot({ path: path.join(SHOTS, 'webhooks-settings-390.png'), fullPage: true });

  await adminPage.reload();
  await expect(adminSection.getByTestId('webhook-card')).toHaveCount(1);
  await expect(adminSection.getByTestId('webhook-delivery').first()).toContainText('Delivered');
  await adminSection.scrollIntoViewIfNeeded();
  await adminSection.screenshot({ path: path.join(SHOTS, 'webhooks-admin-1440.png') });
  await adminPage.setViewportSize({ width: 390, height: 844 });
  await adminSection.screenshot({ path: path.join(SHOTS, 'webhooks-admin-390.png') });
});
