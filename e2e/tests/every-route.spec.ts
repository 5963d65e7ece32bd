import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startServer, type SpawnedServer } from '../support/fake-stripe';
import { datasetWithUpload, post, signedInUser, uploadedModel, waitForDataset } from '../support/seed';

/**
 * Every route of spec §2, with real content (a processed dataset, a project with models,
 * an uploaded ONNX model, a team, something in the trash), at 390, 768 and 1440 px in light and dark:
 * no horizontal scroll, no text squeezed to fewer than 3 characters a line, axe without serious or
 * critical violations. Screenshots go to e2e/screenshots/every-route/ (126 full pages, for a person to
 * look through: taken outside CI, or with E2E_SCREENSHOTS=1; nothing here reads them). The spec has its own server,
 * so its account is the first one: an admin (for /admin) who can put itself on Pro (for teams).
 * One data setup and one signed-in context; each page is loaded once and then resized and switched
 * between the color schemes (Mantine follows the system setting live). In dark, where only colors
 * change, axe checks color contrast; in light every WCAG 2 A/AA rule runs at every width.
 */
const BASE_PORT = Number(process.env.E2E_PORT ?? 3100);
const SERVER_PORT = BASE_PORT + 7;
const SINK_HTTP = `http://127.0.0.1:${BASE_PORT + 1001}`;
const SHOTS = path.resolve(import.meta.dirname, '../screenshots/every-route');
const SCREENSHOTS = process.env.E2E_SCREENSHOTS ? process.env.E2E_SCREENSHOTS === '1' : !process.env.CI;
if (SCREENSHOTS) fs.mkdirSync(SHOTS, { recursive: true });

/** EVERY_ROUTE_ONLY=home,trash: check only these routes (while working on them); unset, every route. */
const ONLY = process.env.EVERY_ROUTE_ONLY?.split(',').map((r) => r.trim());
const picked = <T extends [string, ...unknown[]]>(routes: T[]) => (ONLY ? routes.filter(([name]) => ONLY.includes(name)) : routes);

const WIDTHS = [
  { width: 390, height: 844 },
  { width: 768, height: 1024 },
  { width: 1440, height: 900 },
] as const;
const SCHEMES = ['light', 'dark'] as const;

let server: SpawnedServer;

test.beforeAll(async () => {
  // E2E_WEB_DIST: a copy of the web build, for a run beside others who rebuild apps/web/dist.
  server = await startServer(SERVER_PORT, {
    SMTP_URL: `smtp://127.0.0.1:${BASE_PORT + 1000}`,
    ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
  });
});
test.afterAll(async () => {
  await server?.close();
});

/** What a person would call broken at this size: sideways scrolling, words squeezed to a letter or two per line. */
async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth > window.innerWidth + 1) problems.push(`horizontal scroll: ${scrollWidth} px content in ${window.innerWidth} px`);
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = (node.textContent ?? '').replace(/\s+/g, ' ').trim();
      const el = node.parentElement;
      if (text.length < 3 || !el || el.closest('[aria-hidden="true"], script, style, noscript, pre, code, textarea, svg')) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rects = Array.from(range.getClientRects()).filter((r) => r.width > 0 && r.height > 0);
      if (rects.length < 2) continue;
      const lines = new Set(rects.map((r) => Math.round(r.top))).size;
      if (lines > 1 && text.length / lines < 3) problems.push(`text squeezed to ${lines} lines: "${text.slice(0, 40)}"`);
    }
    return problems;
  });
}

/** Axe (WCAG 2 A and AA); `contrastOnly` for a second color scheme, where only colors differ. */
async function seriousViolations(page: Page, contrastOnly = false): Promise<string[]> {
  const axe = new AxeBuilder({ page }).exclude('[data-testid=notification]');
  const result = await (contrastOnly ? axe.withRules(['color-contrast']) : axe.withTags(['wcag2a', 'wcag2aa'])).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id}: ${v.nodes
          .map((n) => `${n.target.join(' ')}${n.any[0]?.message ? ` (${n.any[0].message})` : ''}`)
          .slice(0, 4)
          .join(', ')}`,
    );
}

/** Loads the route once, then checks it at every width in both schemes; returns what is wrong. */
async function checkRoute(page: Page, name: string, url: string, ready: (page: Page) => Promise<void>): Promise<string[]> {
  const problems: string[] = [];
  try {
    await page.setViewportSize(WIDTHS[2]);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(url);
    await ready(page);
    for (const size of WIDTHS) {
      await page.setViewportSize(size);
      for (const scheme of SCHEMES) {
        await page.emulateMedia({ colorScheme: scheme });
        await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', scheme);
        await page.waitForTimeout(60); // media queries settle
        const tag = `${name} @${size.width} ${scheme}`;
        for (const p of await layoutProblems(page)) problems.push(`${tag}: ${p}`);
        if (SCREENSHOTS) await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}-${scheme}.png`), fullPage: true, animations: 'disabled' });
        // Every rule at every width in light; dark changes colors only, so there the contrast rule.
        for (const v of await seriousViolations(page, scheme === 'dark')) problems.push(`${tag}: axe ${v}`);
      }
    }
  } catch (error) {
    problems.push(`${name}: ${String(error).split('\n')[0]}`);
  }
  for (const p of problems) console.log(`[every-route] ${p}`);
  return problems;
}

/** What a person must see for the page to count as there: a heading, or a sentence where the page has none. */
type Content = { heading: string | RegExp } | { text: string };

/**
 * The page is ready and really rendered: the app root has content, the page's own heading (or
 * sentence) is visible, its test id where it has one, and no script failed on the way. A broken
 * bundle leaves the root empty or throws, so the route fails here.
 */
const mainVisible = (content: Content, testId?: string) => async (page: Page) => {
  await expect(page.locator('#root')).not.toBeEmpty({ timeout: 20_000 });
  if (testId) await expect(page.getByTestId(testId).first()).toBeVisible({ timeout: 20_000 });
  const meaning = 'heading' in content ? page.getByRole('heading', { name: content.heading }) : page.getByText(content.text, { exact: true });
  await expect(meaning.first()).toBeVisible({ timeout: 20_000 });
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.getByTestId('page-loader')).toHaveCount(0);
};

/** Script errors of a page (uncaught exceptions), collected per route. */
function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e).split('\n')[0]!));
  return errors;
}

async function newContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({ viewport: WIDTHS[2], baseURL: server.url });
}

/** A processed dataset, a project with models (one uploaded ONNX), a team, an item in the trash. */
async function seed(authed: BrowserContext) {
  const base = server.url;
  const request = authed.request;
  const me = await signedInUser(request, base, SINK_HTTP, 'routes');
  await post(request, `${base}/v1/admin/billing/users/${me.id}/plan`, { plan: 'pro', reason: 'every-route e2e' }, 200);
  const upload = await datasetWithUpload(request, base, me.id, 'Shapes of the north junction cameras');
  await upload.finish();
  const project = await post<{ id: string }>(request, `${base}/v1/projects`, {
    meta: { name: 'Traffic cameras at the north junction', description: 'Cars, buses and bicycles crossing the junction by day and night.' },
  });
  const model = await uploadedModel(request, base, project.id, 'yolo11n-north-junction-detector-v2-final');
  await post(request, `${base}/v1/models`, { project: { id: project.id }, meta: { name: 'second-try' } });
  const team = await post<{ id: string }>(request, `${base}/v1/teams`, { meta: { name: 'Vision crew of the north junction', description: 'We label cars.' } });
  const gone = await post<{ id: string }>(request, `${base}/v1/projects`, { meta: { name: 'Old experiments' } });
  expect((await request.delete(`${base}/v1/projects/${gone.id}`)).status()).toBeLessThan(300);
  await waitForDataset(request, base, upload.id);
  return { dataset: upload.id, project: project.id, model: model.id, team: team.id };
}

test('guest routes at 390, 768 and 1440 px, light and dark', async ({ browser }) => {
  test.setTimeout(240_000);
  const context = await newContext(browser);
  const page = await context.newPage();
  const problems: string[] = [];
  const errors = pageErrors(page);
  const routes: Array<[string, string, Content, string?]> = [
    ['sign-up', '/', { heading: 'Create your account' }],
    ['sign-in', '/signin', { heading: 'Sign in' }],
    ['landing-view', '/auth', { heading: 'Welcome to Sightline' }],
    ['request-password', '/request-password', { heading: 'Reset your password' }],
    ['reset-password', '/reset-password?token=not-a-real-token', { heading: 'Choose a new password' }],
  ];
  for (const [name, url, content, testId] of picked(routes)) problems.push(...(await checkRoute(page, name, url, mainVisible(content, testId))));
  await context.close();
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
});

test('signed-in routes at 390, 768 and 1440 px, light and dark', async ({ browser }) => {
  test.setTimeout(420_000);
  const authed = await newContext(browser);
  const { dataset, project, model, team } = await seed(authed);
  const page = await authed.newPage();
  const problems: string[] = [];
  const errors = pageErrors(page);
  const routes: Array<[string, string, Content, string?]> = [
    ['home', '/home', { heading: /^Welcome back/ }, 'recent-items'],
    ['welcome', '/welcome', { heading: /^Welcome to Sightline, / }],
    ['settings', '/settings', { heading: 'Settings' }],
    ['settings-teams', '/settings?tab=teams', { heading: 'Settings' }, 'team-card'],
    ['notifications', '/notifications', { heading: 'Notifications' }],
    ['projects', '/projects', { heading: 'Projects' }],
    ['project-content', `/projects/${project}`, { heading: 'Traffic cameras at the north junction' }, 'project-name'],
    ['team', `/teams/${team}`, { heading: 'Vision crew of the north junction' }, 'team-title'],
    ['datasets-index', '/datasets', { heading: 'Datasets' }, 'dataset-card'],
    ['dataset-content', `/datasets/${dataset}`, { heading: 'Shapes of the north junction cameras' }, 'image-tile'],
    ['roboflow-dataset', '/integrations/roboflow/datasets/unknown', { text: 'This project is not available' }],
    ['models', '/models', { heading: 'Models' }],
    ['model-content', `/models/${model}`, { heading: 'yolo11n-north-junction-detector-v2-final' }, 'model-name'],
    ['model-training', `/models/${model}?tab=training`, { heading: 'yolo11n-north-junction-detector-v2-final' }, 'training-panel'],
    ['trash', '/trash', { heading: 'Trash' }],
    ['admin', '/admin', { heading: 'Admin' }],
    ['active-jobs', '/active-jobs', { heading: 'Active jobs' }],
    ['support', '/support', { heading: 'Support' }],
    ['forbidden', '/403', { heading: 'Access denied' }],
    ['uikit', '/uikit', { heading: 'UI kit' }],
    ['not-found', '/no-such-page', { heading: 'Page not found' }],
  ];
  for (const [name, url, content, testId] of picked(routes)) problems.push(...(await checkRoute(page, name, url, mainVisible(content, testId))));
  expect(problems).toEqual([]);
  expect(errors).toEqual([]);
});
