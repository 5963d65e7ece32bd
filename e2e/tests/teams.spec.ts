import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { startServer, type SpawnedServer } from '../support/fake-stripe';
import { linkFrom, uniqueUser } from '../support/api';

/**
 * Teams end to end with two browser contexts (two users) on this spec's own server (its first
 * account is the admin who puts A on Pro), mailing through the run's SMTP sink:
 * A creates a team and invites B by email; B follows the mail link, signs up (the link proves the
 * address), lands on the invite and joins; B sees A's team project and its models but may not train in them (viewer); B joins a
 * second team from /notifications; A removes B and B's open list drops the team project without a
 * reload.
 */
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const SERVER_PORT = BASE_PORT + 13;
const SINK_HTTP = `http://127.0.0.1:${BASE_PORT + 1001}`;

let server: SpawnedServer;
test.describe.configure({ mode: 'serial' });
test.setTimeout(180_000);

test.beforeAll(async () => {
  server = await startServer(SERVER_PORT, { SMTP_URL: `smtp://127.0.0.1:${BASE_PORT + 1000}` });
});
test.afterAll(async () => {
  await server?.close();
});

async function mailTo(page: Page, to: string, match: RegExp): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const mails = (await (await page.request.get(`${SINK_HTTP}/mails?to=${encodeURIComponent(to)}`)).json()) as Array<{ text: string }>;
        text = mails.filter((m) => match.test(m.text)).at(-1)?.text ?? '';
        return text.length > 0;
      },
      { timeout: 15_000 },
    )
    .toBe(true);
  return text;
}

/** Resolves once the page's realtime socket confirms the subscription to the user's own topic. */
function userTopicSubscribed(page: Page): Promise<void> {
  return new Promise((resolve) => {
    page.on('websocket', (ws) =>
      ws.on('framereceived', ({ payload }) => {
        if (typeof payload === 'string' && /"type":"subscribed","topic":"user:\w+"/.test(payload)) resolve();
      }),
    );
  });
}

async function newPage(browser: Browser, width = 1440, height = 900) {
  const context = await browser.newContext({ viewport: { width, height } });
  return context.newPage();
}

/** Sign-up through the API, verification through the mailed link, sign-in in this page's context. */
async function signedInUser(page: Page, prefix: string) {
  const base = server.url;
  const user = uniqueUser(prefix);
  expect((await page.request.post(`${base}/v1/auth/signup`, { data: user })).status()).toBe(201);
  const verify = linkFrom(await mailTo(page, user.email, /verify/), /http:\/\/\S+\/v1\/auth\/verify\?token=[\w%-]+/);
  expect((await page.request.get(verify, { maxRedirects: 0 })).status()).toBe(302);
  expect((await page.request.post(`${base}/v1/auth/signin`, { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const me = (await (await page.request.get(`${base}/v1/users/me`)).json()).data;
  return { ...user, id: me.id as string };
}

test("A creates a team and invites B; B joins from the mail link and from /notifications; removal drops B's team items live", async ({ browser }) => {
  const base = server.url;
  const a = await newPage(browser);
  const alice = await signedInUser(a, 'teamowner'); // first account on this server: admin
  // Free plan first: the button is disabled and says why, with a link to billing.
  await a.goto(`${base}/settings?tab=teams`);
  await expect(a.getByTestId('team-create')).toBeDisabled();
  await expect(a.getByTestId('team-create-disabled')).toContainText('Pro and Enterprise');
  await expect(a.getByTestId('team-create-disabled').getByRole('link', { name: 'See plans in Billing' })).toHaveAttribute('href', '/settings?tab=billing');
  expect((await a.request.post(`${base}/v1/admin/billing/users/${alice.id}/plan`, { data: { plan: 'pro', reason: 'teams e2e' } })).status()).toBe(200);

  // Ten placeholder cards while the list loads (the answer is held back for the screenshot).
  let release: () => void = () => undefined;
  const held = new Promise<void>((r) => (release = r));
  await a.route('**/v1/teams', async (route) => {
    if (route.request().method() === 'GET') await held;
    await route.continue();
  });
  await a.goto(`${base}/settings?tab=teams`);
  await expect(a.getByTestId('card-placeholder')).toHaveCount(10);
  await a.screenshot({ path: path.join(SHOTS, 'teams-tab-placeholders-1440.png'), fullPage: true });
  release();
  await a.unrouteAll({ behavior: 'wait' });

  // Create: the name is trimmed; 43 characters are refused in the dialog.
  await expect(a.getByTestId('team-create')).toBeEnabled();
  await a.getByTestId('team-create').click();
  await a.getByTestId('team-name').fill('x'.repeat(43));
  await expect(a.getByText('At most 42 characters')).toBeVisible();
  await expect(a.getByTestId('team-accept')).toBeDisabled();
  await a.getByTestId('team-name').fill('  Vision crew  ');
  await a.getByTestId('team-description').fill('We label cats and dogs');
  await a.getByTestId('team-accept').click();
  const card = a.getByTestId('team-card').filter({ hasText: 'Vision crew' });
  await expect(card).toBeVisible();
  await expect(card.getByTestId('team-avatar')).toHaveText('VC');
  await expect(card.getByTestId('team-members-count')).toHaveText('1 member');
  // Edit: Accept stays disabled while nothing changed.
  await card.getByTestId('team-menu').click();
  await a.getByRole('menuitem', { name: 'Edit' }).click();
  await expect(a.getByTestId('team-accept')).toBeDisabled();
  await a.getByTestId('team-description').fill('We label cats, dogs and birds');
  await expect(a.getByTestId('team-accept')).toBeEnabled();
  await a.getByTestId('team-accept').click();
  await expect(card).toContainText('cats, dogs and birds');

  // A's project with two models, shared with the team from the team page (the project brings its models).
  const project = (await (await a.request.post(`${base}/v1/projects`, { data: { meta: { name: 'Cat detector' } } })).json()).data;
  for (const name of ['cats-v1', 'cats-v2'])
    expect((await a.request.post(`${base}/v1/models`, { data: { project: { id: project.id }, meta: { name } } })).status()).toBe(201);
  await card.getByTestId('team-card-link').click();
  await expect(a).toHaveURL(/\/teams\/\w{20}$/);
  const teamId = a.url().split('/').at(-1)!;
  await a.getByTestId('team-share-open').click();
  await a.getByTestId('share-item-select').click();
  await a.getByRole('option', { name: 'Cat detector' }).click();
  await a.getByTestId('share-item-submit').click();
  await expect(a.getByTestId('team-projects').getByTestId('project-card')).toHaveCount(1);
  await expect(a.getByTestId('team-models')).toContainText('cats-v1');
  await expect(a.getByTestId('team-models')).toContainText('cats-v2');

  // Invite B (no account yet) as a viewer, by email.
  const bob = uniqueUser('teamviewer');
  await a.getByTestId('team-invite-open').click();
  await a.getByTestId('invite-email').fill(bob.email);
  await a.getByTestId('invite-role').click();
  await a.getByRole('option', { name: /^Viewer/ }).click();
  await a.getByTestId('invite-send').click();
  await expect(a.getByTestId('team-invite')).toContainText(bob.email);
  await expect(a.getByTestId('team-invite')).toContainText('Expires');

  // B: the mail link → sign in page → create an account → back on the invite. The invite link
  // proves the address, so no verification mail stands between sign-up and the team.
  const b = await newPage(browser);
  const inviteLink = linkFrom(await mailTo(b, bob.email, /invited you/), /http:\/\/\S+\/teams\/\w+\?invite=[\w%-]+/);
  await b.goto(inviteLink);
  await expect(b).toHaveURL(/\/signin/);
  await b.getByRole('link', { name: 'Create an account' }).click();
  const signUp = b.getByRole('form', { name: 'Create your account' });
  await signUp.getByLabel('First name').fill(bob.firstName);
  await signUp.getByLabel('Username').fill(bob.username);
  await expect(signUp.getByLabel('Email')).toHaveValue(bob.email);
  await signUp.getByRole('textbox', { name: 'Password' }).fill(bob.password);
  await signUp.getByRole('button', { name: 'Sign up' }).click();
  await expect(b).toHaveURL(new RegExp(`/teams/${teamId}\\?invite=`));
  await expect(b.getByTestId('team-invite-banner')).toContainText('Vision crew');
  await b.getByTestId('invite-accept').click();
  await expect(b.getByTestId('team-page-count')).toHaveText('2 members');
  await expect(a.getByTestId('team-page-count')).toHaveText('2 members'); // A's open page, over realtime
  await expect(b.getByTestId('team-projects')).toContainText('Cat detector');
  await expect(b.getByTestId('team-models')).toContainText('cats-v2');

  // B sees A's team project and its models in B's own lists, with the team badge; B trains nothing (viewer).
  await b.goto(`${base}/projects`);
  const bCard = b.getByTestId('project-card').filter({ hasText: 'Cat detector' });
  await expect(bCard.getByTestId('team-badge')).toBeVisible();
  await bCard.getByRole('link', { name: 'Cat detector' }).click();
  await expect(b.getByText('cats-v1')).toBeVisible();
  await expect(b.getByRole('button', { name: 'Train model' })).toHaveCount(0);
  expect([403, 404]).toContain((await b.request.post(`${base}/v1/models`, { data: { project: { id: project.id }, meta: { name: 'sneaky' } } })).status());
  await b.goto(`${base}/models`);
  await expect(b.getByText('cats-v2')).toBeVisible();

  // Screenshots: the Teams tab with cards and the team page, desktop and phone.
  await a.goto(`${base}/teams/${teamId}`);
  await expect(a.getByTestId('team-member')).toHaveCount(2);
  await a.screenshot({ path: path.join(SHOTS, 'team-page-1440.png'), fullPage: true });
  const aPhone = await newPage(browser, 390, 844);
  await aPhone.request.post(`${base}/v1/auth/signin`, { data: { email: alice.email, password: alice.password } });
  await aPhone.goto(`${base}/teams/${teamId}`);
  await expect(aPhone.getByTestId('team-member')).toHaveCount(2);
  await aPhone.screenshot({ path: path.join(SHOTS, 'team-page-390.png'), fullPage: true });

  // A second team: B joins it from /notifications (B has an account now: an in-app invite too).
  const second = (await (await a.request.post(`${base}/v1/teams`, { data: { meta: { name: 'Second crew', description: 'Birds' } } })).json()).data;
  const subscribed = userTopicSubscribed(b);
  await b.goto(`${base}/notifications`);
  await subscribed;
  expect(
    (
      await a.request.post(`${base}/api_v1/teams/${second.id}/invite`, {
        data: { data: { email: bob.email, role: 'member' }, parent: { collection: 'teams', id: second.id, name: 'Second crew' } },
      })
    ).status(),
  ).toBe(201);
  await expect(b.getByText('invited you to join their team').first()).toBeVisible(); // realtime toast
  await b.goto(`${base}/settings?tab=teams`);
  await expect(b.getByTestId('team-card').filter({ hasText: 'Second crew' }).getByTestId('team-join')).toBeVisible();
  await b.screenshot({ path: path.join(SHOTS, 'teams-tab-invited-1440.png'), fullPage: true });
  await b.goto(`${base}/notifications`);
  const invite = b.getByTestId('notification-record').filter({ hasText: 'Second crew' });
  await expect(invite).toBeVisible();
  await invite.getByTestId('my-invite-join').click();
  await expect(invite.getByTestId('my-invite-join')).toHaveCount(0);
  await b.goto(`${base}/settings?tab=teams`);
  await expect(b.getByTestId('team-card')).toHaveCount(2);
  await expect(b.getByTestId('team-card').filter({ hasText: 'Second crew' }).getByTestId('team-members-count')).toHaveText('2 members');
  // B sees no owner menu on A's teams.
  await expect(b.getByTestId('team-menu')).toHaveCount(0);

  await a.goto(`${base}/settings?tab=teams`);
  await expect(a.getByTestId('team-card')).toHaveCount(2);
  await a.screenshot({ path: path.join(SHOTS, 'teams-tab-1440.png'), fullPage: true });
  await aPhone.goto(`${base}/settings?tab=teams`);
  await expect(aPhone.getByTestId('team-card')).toHaveCount(2);
  await aPhone.screenshot({ path: path.join(SHOTS, 'teams-tab-390.png'), fullPage: true });

  // A removes B from the first team: B's open projects list drops the team project without a reload.
  const bListening = userTopicSubscribed(b);
  await b.goto(`${base}/projects`);
  await expect(b.getByTestId('project-card').filter({ hasText: 'Cat detector' })).toBeVisible();
  await bListening;
  await a.goto(`${base}/teams/${teamId}`);
  await a.getByTestId('team-member').filter({ hasText: bob.username }).getByTestId('member-remove').click();
  await a.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(a.getByTestId('team-member')).toHaveCount(1);
  await expect(b.getByTestId('project-card').filter({ hasText: 'Cat detector' })).toHaveCount(0);
  expect((await b.request.get(`${base}/v1/projects/${project.id}`)).status()).toBe(404);
});
