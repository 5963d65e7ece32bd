import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startFakeStripe, startServer, stripeEnv, type FakeStripe, type SpawnedServer } from '../support/fake-stripe';
import { uniqueUser } from '../support/api';

/**
 * Billing end to end: a Sightline server with Stripe on, pointed at the local fake Stripe (its
 * hosted Checkout page is clicked in the browser; its signed webhooks reach the server), and one
 * with billing off where an admin sets the plan by hand. Each server is this spec's own, so the
 * first account on it is its admin.
 */
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const STRIPE_SERVER_PORT = BASE_PORT + 10;
const OFF_SERVER_PORT = BASE_PORT + 11;
const FAKE_STRIPE_PORT = BASE_PORT + 12;

let fake: FakeStripe;
let stripeServer: SpawnedServer;
let offServer: SpawnedServer;

test.describe.configure({ mode: 'serial' });
test.setTimeout(120_000);

test.beforeAll(async () => {
  test.setTimeout(240_000); // two more server processes boot on a small machine
  fake = await startFakeStripe({ port: FAKE_STRIPE_PORT, webhookUrl: `http://127.0.0.1:${STRIPE_SERVER_PORT}/v1/billing/stripe/webhook` });
  [stripeServer, offServer] = await Promise.all([startServer(STRIPE_SERVER_PORT, stripeEnv(fake)), startServer(OFF_SERVER_PORT)]);
});
test.afterAll(async () => {
  await Promise.all([stripeServer?.close(), offServer?.close()]);
  await fake?.close();
});

async function signUp(page: Page, base: string, prefix: string) {
  const user = uniqueUser(prefix);
  const res = await page.request.post(`${base}/v1/auth/signup`, { data: user });
  expect(res.status()).toBe(201);
  return user;
}

async function newPage(browser: Browser, width = 1440, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

test('free user: advertisement to the plans, the wallet explained; upgrade through Checkout; top-up in the ledger', async ({ browser }) => {
  const base = stripeServer.url;
  const page = await newPage(browser);
  await signUp(page, base, 'billadmin'); // first account: admin (turns the walletTopUp flag on)
  expect((await page.request.patch(`${base}/v1/config/flags`, { data: { walletTopUp: true } })).status()).toBe(200);

  await page.goto(`${base}/home`);
  await expect(page.getByTestId('free-plan-ad')).toBeVisible();
  await expect(page.getByTestId('sidebar-plan')).toHaveText('Free');
  // The wallet is for paid plans: a free user reads why and where to look (ADR 0030).
  await page.goto(`${base}/wallet`);
  await expect(page.getByTestId('wallet-compare-plans')).toBeVisible();

  // The advertisement opens the plan comparison; with payments on, its Pro card leads to checkout.
  await page.goto(`${base}/home`);
  await page.getByTestId('free-plan-ad').getByRole('link').click();
  await expect(page).toHaveURL(`${base}/plans`);
  await page.getByTestId('plan-pro').getByRole('link', { name: 'Upgrade to Pro' }).click();
  await expect(page).toHaveURL(`${base}/settings?tab=billing`);
  await expect(page.getByTestId('billing-plan')).toHaveText('Free');
  await expect(page.getByTestId('billing-off')).toHaveCount(0);

  await page.getByRole('button', { name: /Upgrade to Pro/ }).click();
  await expect(page).toHaveURL(new RegExp(`^${fake.url.replace('127.0.0.1', '(127.0.0.1|localhost)')}/checkout/cs_test_`));
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();

  // Back from Stripe: the webhooks made the user pro.
  await expect(page).toHaveURL(new RegExp(`^${base}/settings\\?tab=billing`));
  await expect(page.getByTestId('billing-plan')).toHaveText('Pro');
  await expect(page.getByTestId('billing-renewal')).toContainText('Renews on');
  await expect(page.getByTestId('sidebar-plan')).toHaveText('Pro');
  expect(fake.deliveries.map((d) => [d.type, d.status])).toEqual([
    ['customer.subscription.created', 200],
    ['invoice.paid', 200],
    ['checkout.session.completed', 200],
  ]);

  // Top-up: $25 through Checkout, then the ledger shows it.
  await page.getByRole('button', { name: 'Top up' }).click();
  await page.getByLabel('Amount (USD)').fill('25');
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(page.getByRole('heading', { name: 'Fake Stripe Checkout' })).toBeVisible();
  await expect(page.getByText('Wallet top-up')).toBeVisible();
  await page.getByRole('button', { name: 'Pay' }).click();
  await expect(page).toHaveURL(new RegExp(`^${base}/settings\\?tab=billing`));
  await expect(page.getByTestId('wallet-balance')).toHaveText('$25.00');
  const ledger = page.getByTestId('ledger-table');
  await expect(ledger.getByRole('row').nth(1)).toContainText('Top-up');
  await expect(ledger.getByRole('row').nth(1)).toContainText('+$25.00');
  // Billing history lists the subscription invoice and the top-up receipt.
  await expect(page.getByTestId('billing-history').getByRole('row')).toHaveCount(3);
  await page.screenshot({ path: path.join(SHOTS, 'billing-tab-1440.png'), fullPage: true });

  // The advertisement is gone and the pro-only wallet opens.
  await page.goto(`${base}/home`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('free-plan-ad')).toHaveCount(0);
  await page.goto(`${base}/wallet`);
  await expect(page).toHaveURL(`${base}/wallet`);
  await expect(page.getByTestId('wallet-page')).toContainText('$25.00');

  // The same tab on a phone.
  const phone = await page.context().newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(`${base}/settings?tab=billing`);
  await expect(phone.getByTestId('billing-plan')).toHaveText('Pro');
  await expect(phone.getByTestId('wallet-balance')).toHaveText('$25.00');
  await phone.screenshot({ path: path.join(SHOTS, 'billing-tab-390.png'), fullPage: true });
  await page.context().close();
});

test('billing off: the tab says so and leads to a request; an admin sets the plan by hand and the wallet opens', async ({ browser }) => {
  const base = offServer.url;
  const adminPage = await newPage(browser);
  await signUp(adminPage, base, 'offadmin');
  const userPage = await newPage(browser);
  const user = await signUp(userPage, base, 'offuser');

  await userPage.goto(`${base}/settings?tab=billing`);
  await expect(userPage.getByTestId('billing-off')).toContainText('Billing is off on this server');
  await expect(userPage.getByTestId('billing-plan')).toHaveText('Free');
  await expect(userPage.getByRole('button', { name: /Upgrade to Pro/ })).toHaveCount(0);
  await userPage.screenshot({ path: path.join(SHOTS, 'billing-tab-off-1440.png'), fullPage: true });
  // With payments off the way up is a request to the admins (ADR 0030); a Free user's wallet explains itself.
  await expect(userPage.getByTestId('plan-compare')).toHaveText('Compare plans and request an upgrade');
  await userPage.goto(`${base}/wallet`);
  await expect(userPage.getByTestId('wallet-compare-plans')).toBeVisible();

  // The admin page's billing section: pick the account, plan Pro, a reason.
  await adminPage.goto(`${base}/admin`);
  const section = adminPage.getByTestId('admin-billing');
  await expect(section).toContainText('Billing is off');
  await section.getByLabel('Account').click();
  await adminPage.getByRole('option', { name: new RegExp(user.username) }).click();
  await expect(section.getByTestId('admin-user-wallet')).toContainText('Free');
  await section.getByRole('combobox', { name: 'Plan' }).click();
  await adminPage.getByRole('option', { name: 'Pro' }).click();
  await section.getByLabel('Reason (recorded)').first().fill('Research grant');
  await section.getByRole('button', { name: 'Set plan' }).click();
  await expect(section.getByTestId('admin-user-wallet')).toContainText('Pro');
  // and a credit by hand
  await section.getByLabel('Credit (USD)').fill('12.5');
  await section.getByLabel('Reason (recorded)').nth(1).fill('Welcome credit');
  await section.getByRole('button', { name: 'Credit wallet' }).click();
  await expect(section.getByTestId('admin-user-wallet')).toContainText('$12.50');

  await userPage.goto(`${base}/wallet`);
  await expect(userPage).toHaveURL(`${base}/wallet`);
  await expect(userPage.getByTestId('wallet-page')).toContainText('Credit by an administrator');
  await expect(userPage.getByTestId('wallet-page')).toContainText('Welcome credit');
  await userPage.goto(`${base}/settings?tab=billing`);
  await expect(userPage.getByTestId('billing-plan')).toHaveText('Pro');
  await expect(userPage.getByText('Set by an administrator')).toBeVisible();
});
