// Screenshots and an axe scan of the main pages against a running server.
// Usage: BASE_URL=http://localhost:3411 OUT=/tmp/sightline-shots node apps/web/scripts/screenshots.mjs
import { mkdirSync } from 'node:fs';
import { chromium } from 'playwright';
import AxeBuilder from '@axe-core/playwright';

const base = process.env.BASE_URL ?? 'http://localhost:3000';
const out = process.env.OUT ?? '/tmp/sightline-shots';
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
const results = [];
async function shot(page, name, path, { axe = false, wait } = {}) {
  await page.goto(base + path, { waitUntil: 'networkidle' });
  if (wait) await page.waitForSelector(wait, { timeout: 10_000 });
  await page.waitForTimeout(1300);
  await page.screenshot({ path: `${out}/${name}.png`, fullPage: false });
  if (axe) {
    const r = await new AxeBuilder({ page }).analyze();
    const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    results.push({
      name,
      violations: r.violations.map(
        (v) =>
          `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes
            .slice(0, 2)
            .map((n) => n.target.join(' '))
            .join(' | ')}`,
      ),
      serious: bad.length,
    });
  }
}

const desktop = await browser.newContext({ viewport: { width: 1440, height: 900 } });
const page = await desktop.newPage();
page.on('pageerror', (e) => console.log('pageerror', e.message));
await shot(page, '01-signin', '/signin', { axe: true, wait: 'form' });
await shot(page, '02-signup', '/signup', { axe: true, wait: 'form' });
await shot(page, '03-request-password', '/request-password', { axe: true, wait: 'form' });
await shot(page, '04-reset-password', '/reset-password?token=abcdefghijklmnop', { axe: true, wait: 'form' });
await shot(page, '05-uikit', '/uikit', { axe: true });
await page.screenshot({ path: `${out}/05b-uikit-full.png`, fullPage: true });
await shot(page, '06-support-public', '/support', { axe: true });
await shot(page, '07-404-public', '/no/such/page');

const email = `shots${Date.now()}@example.com`;
const res = await page.request.post(`${base}/v1/auth/signup`, {
  data: { email, password: 'Passw0rd!x', username: `shots${Date.now() % 100000}`, firstName: 'Ada' },
});
console.log('signup', res.status());
await shot(page, '10-home', '/home', { axe: true, wait: '[data-testid=sidebar]' });
await shot(page, '11-settings-profile', '/settings', { axe: true, wait: 'form' });
await page.screenshot({ path: `${out}/11b-settings-full.png`, fullPage: true });
await shot(page, '12-settings-api-keys', '/settings?tab=api-keys', { axe: true });
await page.getByRole('button', { name: 'Create key' }).click();
await page.waitForSelector('[data-testid=api-key-secret]');
await page.waitForTimeout(500);
await page.screenshot({ path: `${out}/13-api-key-created.png` });
await page.keyboard.press('Escape');
await shot(page, '14-datasets', '/datasets', { axe: true });
await shot(page, '15-notifications', '/notifications', { axe: true });
await shot(page, '16-settings-billing', '/settings?tab=billing');
await shot(page, '17-welcome', `/welcome?email=${encodeURIComponent(email)}`, { axe: true });
await shot(page, '18-support', '/support', { axe: true });
await page.goto(base + '/home', { waitUntil: 'networkidle' });
await page.getByTestId('feedback-button').click();
await page.waitForTimeout(600);
await page.screenshot({ path: `${out}/19-feedback.png` });
await page.keyboard.press('Escape');
await page.getByRole('button', { name: 'Collapse sidebar' }).click();
await page.waitForTimeout(400);
await page.screenshot({ path: `${out}/20-collapsed.png` });
await page.getByRole('button', { name: 'Expand sidebar' }).click();

const mobile = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: await desktop.storageState() });
const m = await mobile.newPage();
await shot(m, '30-mobile-home', '/home', { axe: true });
await shot(m, '31-mobile-signin-out', '/uikit');
const fresh = await browser.newContext({ viewport: { width: 390, height: 844 } });
await shot(await fresh.newPage(), '32-mobile-signin', '/signin', { axe: true });

console.log(JSON.stringify(results, null, 1));
await browser.close();
