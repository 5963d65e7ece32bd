import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';
import { E2E_ROBOFLOW_KEY } from '../support/roboflow-key';
import { instanceCounts, sampleDetectionProject } from '../../apps/server/test/support/fake-roboflow';

const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `roboflow-${name}.png`), fullPage: true });

async function signUp(page: Page) {
  const user = await createVerifiedUser(page.request, 'rf');
  const signin = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } });
  expect(signin.status()).toBe(200);
  return user;
}

test('link a workspace, open a project, see 5 previews with labels, import a version, land on the processed dataset', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page);

  // the sidebar's Integrations entry opens the tab
  await page.goto('/home');
  await page.getByRole('link', { name: 'Integrations' }).first().click();
  await expect(page).toHaveURL(/\/settings\?tab=integrations/);
  const tab = page.getByTestId('integrations-tab');

  // a publishable key gets a clear message
  await tab.getByLabel('Private API key').fill('rf_publishable123456');
  await tab.getByRole('button', { name: 'Link workspace' }).click();
  await expect(tab).toContainText('publishable key');

  await tab.getByLabel('Private API key').fill(E2E_ROBOFLOW_KEY);
  await tab.getByRole('button', { name: 'Link workspace' }).click();
  const ws = page.getByTestId('roboflow-workspace');
  await expect(ws).toContainText('Acme Vision');
  const shapes = ws.locator('[data-project="acme/shapes-4ckfl"]');
  await expect(shapes).toContainText('Ready');
  await expect(shapes).toContainText('8 images');
  await expect(shapes).toContainText('2 versions');
  await expect(ws.locator('[data-project="acme/new-project"]')).toContainText('No Version');
  const hands = ws.locator('[data-project="acme/hands-x1"]');
  await expect(hands).toHaveAttribute('data-skipped', 'true');
  await expect(hands).toContainText('cannot be imported');
  // the key is never shown back
  await expect(page.locator('body')).not.toContainText(E2E_ROBOFLOW_KEY);
  await shot(page, 'integrations-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'integrations-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  await shapes.getByRole('link', { name: 'Open Shapes' }).click();
  await expect(page).toHaveURL(/\/integrations\/roboflow\/datasets\/acme%2Fshapes-4ckfl$/);
  const previews = page.getByTestId('roboflow-preview');
  await expect(previews).toHaveCount(5);
  for (let i = 0; i < 5; i++) {
    await expect(previews.nth(i).locator('img')).toHaveJSProperty('complete', true);
    expect(await previews.nth(i).locator('svg rect').count()).toBeGreaterThan(0);
  }
  await expect(previews.first().locator('rect[data-label="circle"]')).toHaveCount(1);
  await expect(page.getByTestId('roboflow-classes')).toContainText('circle');
  await expect(page.getByTestId('roboflow-splits')).toContainText('train');
  await expect(page.getByTestId('roboflow-version')).toHaveCount(2);
  await shot(page, 'project-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'project-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  const v1 = page.locator('[data-testid=roboflow-version][data-version="1"]');
  await v1.getByRole('button', { name: 'Import Version 1' }).click();
  await expect(v1.getByTestId('roboflow-import')).toBeVisible();
  await shot(page, 'project-importing-1440');
  await expect(v1.getByTestId('roboflow-import')).toHaveAttribute('data-status', 'ready', { timeout: 60_000 });
  await shot(page, 'project-imported-1440');
  await v1.getByRole('link', { name: 'Open dataset' }).click();

  await expect(page).toHaveURL(/\/datasets\/[A-Za-z0-9]{20}/);
  await expect(page.getByTestId('fact-classes')).toHaveText('3');
  await page.getByRole('tab', { name: 'Overview' }).click();
  const table = page.getByTestId('class-table');
  // the instance counts of the processed dataset are the boxes the fake project holds
  const expected = instanceCounts(sampleDetectionProject('shapes-4ckfl'));
  for (const [name, count] of Object.entries(expected)) {
    await expect(table.getByRole('row').filter({ hasText: name }).locator('td').last()).toHaveText(String(count));
  }
  await expect(page.getByTestId('class-chart')).toHaveAttribute('data-ready', 'true');
  await shot(page, 'dataset-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'dataset-390');
  await page.setViewportSize({ width: 1440, height: 900 });

  // importing the same version again keeps one dataset
  await page.goBack();
  await expect(page.locator('[data-testid=roboflow-version][data-version="1"]').getByRole('button', { name: /^Import/ })).toHaveCount(0);
});

test("an import still on Roboflow's side shows on /active-jobs with its phase, and Cancel ends it", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await signUp(page);
  const linked = await page.request.post('/v1/integrations/roboflow/workspaces', { data: { apiKey: E2E_ROBOFLOW_KEY } });
  expect(linked.status()).toBe(201);
  const started = await page.request.post('/v1/integrations/roboflow/projects/acme/slow-9k2/versions/1/import');
  expect(started.status()).toBeLessThan(300);

  await page.goto('/active-jobs');
  const card = page.getByTestId('roboflow-imports').getByTestId('job-import');
  await expect(card).toHaveCount(1);
  await expect(card).toContainText('slow-9k2 · version 1');
  await expect(card.getByTestId('roboflow-import')).toHaveAttribute('data-status', /queued|exporting/);
  await expect(card).toContainText('Roboflow is generating the export', { timeout: 20_000 });
  await shot(page, 'active-jobs-1440');
  await page.setViewportSize({ width: 390, height: 844 });
  await shot(page, 'active-jobs-390');
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByTestId('roboflow-imports')).toHaveCount(0);
  await expect(page.getByText('No active jobs')).toBeVisible();
});
