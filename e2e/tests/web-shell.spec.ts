import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, latestMail, linkFrom, uniqueUser } from '../support/api';

/** Signs in through the API in the page's context (the session cookie lands in the browser). */
async function signIn(page: Page, user: { email: string; password: string }) {
  const res = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
}

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test('sign up, verify by mail, sign in and land on home with the sidebar', async ({ page, request }) => {
  const user = uniqueUser('shell');
  await page.goto('/signup');
  await page.getByLabel('First name').fill(user.firstName);
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page.getByTestId('check-email')).toBeVisible();

  const mail = await latestMail(request, user.email, /verify/);
  const link = linkFrom(mail, /http:\/\/\S+\/v1\/auth\/verify\?token=[\w%-]+/);
  await page.goto(link);
  await expect(page).toHaveURL(/\/signin/);
  await expect(page.getByText('Your email is verified. You can sign in now.')).toBeVisible();

  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/home$/);
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar.getByTestId('sidebar-name')).toHaveText(user.username);
  await expect(sidebar.getByTestId('sidebar-plan')).toHaveText('Free');
  await expect(sidebar.getByTestId('version-label')).toHaveText('v0.1.85-rc.1 · staging');
  // The Admin entry follows the roles (the first account of a fresh server may be its admin).
  const me = (await (await page.request.get('/v1/users/me')).json()).data as { roles: string[] };
  await expect(sidebar.getByRole('link', { name: 'Admin' })).toHaveCount(me.roles.includes('admin') ? 1 : 0);
  await expect(page.getByTestId('free-plan-ad')).toBeVisible();
  await expect(page.getByTestId('startup-progress')).toHaveCount(0, { timeout: 10_000 });
});

test('wrong password shows the server message; a protected page is remembered through sign-in', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'guard');
  await page.goto('/settings?tab=api-keys');
  await expect(page).toHaveURL(/\/signin$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password-1');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByTestId('auth-error')).toContainText('Wrong email or password.');
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\?tab=api-keys$/);
  await expect(page.getByRole('tab', { name: 'API keys' })).toHaveAttribute('aria-selected', 'true');

  // Guest pages send a signed-in user home.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/home$/);
});

test('API keys: created key is shown once in both spellings, listed, then revoked', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'keys');
  await signIn(page, user);
  await page.goto('/settings?tab=api-keys');
  await page.getByLabel('Name', { exact: true }).fill('laptop');
  await page.getByRole('button', { name: 'Create key' }).click();
  const secrets = page.getByTestId('api-key-secret');
  await expect(secrets).toHaveCount(2);
  await expect(secrets.nth(0)).toHaveText(/^ul_[0-9a-f]{40}$/);
  await expect(secrets.nth(1)).toHaveText(/^ul[0-9a-f]{40}$/);
  await page.getByRole('button', { name: 'Done' }).click();
  const row = page.getByTestId('api-key-row').filter({ hasText: 'laptop' });
  await expect(row).toBeVisible();
  await expect(page.getByTestId('api-key-secret')).toHaveCount(0);
  await row.getByRole('button', { name: 'Revoke laptop' }).click();
  await row.getByRole('button', { name: 'Revoke' }).click();
  await expect(page.getByTestId('api-key-row')).toHaveCount(0);
});

test('profile: username change shows in the sidebar; the image drop zone refuses non-images', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'prof');
  await signIn(page, user);
  await page.goto('/settings');
  const name = `${user.username}x`;
  await page.getByLabel('Username').fill(name);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByTestId('sidebar-name')).toHaveText(name);

  await page
    .getByTestId('image-dropzone')
    .locator('input[type=file]')
    .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
  await expect(page.getByText('Must be a valid image file!')).toBeVisible();
});

test('password reset by mail, then sign in with the new password', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'reset');
  await page.goto('/request-password');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByTestId('request-sent')).toBeVisible();
  const mail = await latestMail(request, user.email, /reset-password/);
  const link = linkFrom(mail, /http:\/\/\S+\/reset-password\?token=[\w%-]+/);
  await page.goto(link);
  await page.getByRole('textbox', { name: 'New password', exact: true }).fill('brand-new-pass-2');
  await page.getByRole('textbox', { name: 'Confirm new password' }).fill('brand-new-pass-2');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByTestId('reset-done')).toBeVisible();
  const res = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: 'brand-new-pass-2' } });
  expect(res.status()).toBe(200);
});

test('feedback dialog saves a rating', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'fb');
  await signIn(page, user);
  await page.goto('/home');
  await page.getByTestId('feedback-button').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText('Help us improve by sharing your feedback')).toBeVisible();
  const save = dialog.getByRole('button', { name: 'Save' });
  await expect(save).toBeDisabled();
  const star = dialog.getByLabel('4 stars');
  await dialog.locator(`label[for="${await star.getAttribute('id')}"]`).click();
  await dialog.getByLabel('Review').fill('  Works well  ');
  await expect(save).toBeEnabled();
  await save.click();
  await expect(page.getByText('Thank you for your feedback!')).toBeVisible();
  const me = await (await page.request.get('/v1/users/me')).json();
  expect(me.data.feedback).toMatchObject({ rating: 4, review: 'Works well' });
});

test('unknown routes show 404, /login is sign-in, sign out returns to sign-in', async ({ page, request }) => {
  await page.goto('/definitely/not/here');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await expect(page.getByTestId('public-signup')).toHaveAttribute('href', '/signup');
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();

  const user = await createVerifiedUser(request, 'out');
  await signIn(page, user);
  await page.goto('/home');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/signin$/);
  await page.goto('/home');
  await expect(page).toHaveURL(/\/signin$/);
});

test('inside an iframe every page but /403 redirects to /403', async ({ page }) => {
  await page.goto('/uikit');
  await page.evaluate(() => {
    const frame = document.createElement('iframe');
    frame.src = '/signin';
    frame.id = 'framed';
    document.body.appendChild(frame);
  });
  const frame = page.frameLocator('#framed');
  await expect(frame.getByText('Sightline cannot be shown inside another site.')).toBeVisible();
  await expect
    .poll(() =>
      page
        .frames()
        .find((f) => f.url().includes('/403'))
        ?.url(),
    )
    .toContain('/403');
});

test('a page chunk that fails to load makes the browser reload the target path once', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'chunk');
  await signIn(page, user);
  await page.goto('/home');
  let failed = 0;
  await page.route(/\/assets\/support-[\w-]+\.js$/, async (route) => {
    if (failed === 0) {
      failed += 1;
      return route.abort();
    }
    return route.continue();
  });
  const reloaded = page.waitForEvent('load');
  await page.getByTestId('sidebar').getByRole('link', { name: 'Support' }).click();
  await reloaded;
  await expect(page).toHaveURL(/\/support$/);
  await expect(page.getByTestId('env-details')).toContainText('Version: v0.1.85-rc.1');
  expect(failed).toBe(1);
});

test('no serious accessibility violations on auth pages, home, settings and uikit', async ({ page, request }) => {
  for (const path of ['/signin', '/signup', '/request-password', '/uikit']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page), path).toEqual([]);
  }
  const user = await createVerifiedUser(request, 'axe');
  await signIn(page, user);
  for (const path of ['/home', '/settings', '/settings?tab=api-keys']) {
    await page.goto(path);
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await page.waitForLoadState('networkidle');
    expect(await seriousViolations(page), path).toEqual([]);
  }
});

test('mobile: the bottom menu shows Datasets, Projects, Models and Settings', async ({ browser, request }) => {
  const user = await createVerifiedUser(request, 'mob');
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, user);
  await page.goto('/home');
  const menu = page.getByTestId('mobile-menu');
  await expect(menu.getByRole('link')).toHaveText(['Datasets', 'Projects', 'Models', 'Settings']);
  await expect(page.getByTestId('sidebar')).toHaveCount(0);
  await context.close();
});

test('the Welcome cards and Home quick actions open the dialog they name', async ({ page, request }) => {
  const user = await createVerifiedUser(request, 'cards');
  await signIn(page, user);
  const cases: [string, string, RegExp, string][] = [
    ['/welcome', 'welcome-dataset', /\/datasets\?create=1$/, 'New dataset'],
    ['/welcome', 'welcome-project', /\/projects\?create=1$/, 'New project'],
    ['/welcome', 'welcome-model', /\/models\?train=1$/, 'Train a model'],
    ['/home', 'quick-dataset', /\/datasets\?create=1$/, 'New dataset'],
    ['/home', 'quick-project', /\/projects\?create=1$/, 'New project'],
    ['/home', 'quick-model', /\/models\?train=1$/, 'Train a model'],
  ];
  for (const [from, card, url, dialog] of cases) {
    await page.goto(from);
    await page.getByTestId(card).click();
    await expect(page, `${from} ${card}`).toHaveURL(url);
    await expect(page.getByRole('dialog', { name: dialog }), `${from} ${card}`).toBeVisible();
  }
});
