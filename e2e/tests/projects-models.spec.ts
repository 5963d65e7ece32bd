import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';

const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models');
const MODEL_FILE = path.join(FIXTURES, 'shapes3-detect.onnx');
const COVER_FILE = path.join(FIXTURES, 'test-images/test_0000.png');
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');

/** Size as the app shows it: 1024 steps, one decimal (spec §9). */
function formatBytes(bytes: number) {
  const units = ['B', 'KB', 'MB', 'GB'];
  let unit = 0;
  let value = bytes;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

async function signIn(page: Page, user: { email: string; password: string }) {
  const res = await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } });
  expect(res.status()).toBe(200);
}

async function shot(page: Page, name: string) {
  // Let toasts and transitions settle so the picture shows the page, not an animation frame.
  await page.waitForTimeout(350);
  await page.screenshot({ path: path.join(SHOTS, `projects-models-${name}.png`), fullPage: true });
}

async function seriousViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

test.beforeAll(() => fs.mkdirSync(SHOTS, { recursive: true }));

test('project → upload model → share unlisted → open signed out → delete → trash → restore', async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  const user = await createVerifiedUser(request, 'pm');
  await signIn(page, user);
  const size = formatBytes(fs.statSync(MODEL_FILE).size);

  // Create a project with a cover image from the image-only drop zone.
  await page.goto('/projects');
  await expect(page.getByTestId('empty-state')).toContainText('No projects yet');
  await page.getByRole('button', { name: 'New project' }).first().click();
  const create = page.getByRole('dialog', { name: 'New project' });
  await create.getByLabel('Name').fill('Shapes e2e');
  await create.getByLabel('Description').fill('Three coloured shapes, detected.');
  await create.getByTestId('image-dropzone').locator('input[type=file]').setInputFiles(COVER_FILE);
  await expect(create.getByRole('img', { name: 'Cover image preview' })).toBeVisible();
  await shot(page, '01-create-project');
  await create.getByRole('button', { name: 'Create project' }).click();
  await expect(page).toHaveURL(/\/projects\/[A-Za-z0-9]{20}$/);
  const projectUrl = new URL(page.url()).pathname;
  await expect(page.getByTestId('project-name')).toHaveText('Shapes e2e');
  await expect(page.getByTestId('project-description')).toHaveText('Three coloured shapes, detected.');

  // Upload the .onnx fixture into it.
  await page.getByRole('button', { name: 'Upload model' }).first().click();
  const upload = page.getByRole('dialog', { name: 'Upload model' });
  await expect(upload.getByText('Into the project “Shapes e2e”.')).toBeVisible();
  await upload.locator('input[type=file]').setInputFiles(MODEL_FILE);
  await expect(upload.getByLabel('Model name')).toHaveValue('shapes3-detect');
  await upload.getByLabel('Model name').fill('shapes detector');
  await shot(page, '02a-upload-dialog');
  await upload.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText('Model uploaded successfully.')).toBeVisible({ timeout: 30_000 });
  const row = page.getByTestId('project-model').filter({ hasText: 'shapes detector' });
  await expect(row).toBeVisible();
  await expect(row.getByTestId('project-model-size')).toHaveText(size);
  await expect(row.getByTestId('model-status')).toHaveText('Trained');
  await expect(page.getByTestId('project-total-models')).toHaveText('1');
  // Uploaded weights are the model's file, not an export: the Exports card counts export jobs' files only (ADR 0030).
  await expect(page.getByTestId('project-totals')).toContainText('No exports yet');
  const modelId = await row.getAttribute('data-model-id');
  expect(modelId).toMatch(/^[A-Za-z0-9]{20}$/);
  await shot(page, '02b-project-with-model');
  expect(await seriousViolations(page), 'project page').toEqual([]);

  // Listed with its size on /projects and /models.
  await page.goto('/projects');
  const card = page.getByTestId('project-card').filter({ hasText: 'Shapes e2e' });
  await expect(card.getByTestId('project-card-count')).toHaveText('1 model');
  await expect(card.getByTestId('project-card-size')).toContainText(size.split(' ')[1]!);
  await shot(page, '03-projects-list');
  await page.goto('/models');
  await expect(page.getByTestId('model-card').filter({ hasText: 'shapes detector' }).getByTestId('model-card-size')).toHaveText(size);
  await shot(page, '04-models-list');

  // Share the project as unlisted: the privacy reaches its model.
  await page.goto(projectUrl);
  await page.getByRole('button', { name: 'Share' }).click();
  const share = page.getByRole('dialog', { name: 'Share “Shapes e2e”' });
  await share.getByRole('radio', { name: 'Unlisted' }).check();
  await expect(share.getByRole('textbox', { name: 'Link' })).toHaveValue(new RegExp(`${projectUrl}$`));
  await shot(page, '05-share-dialog');
  await share.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Project and its models are now Unlisted.')).toBeVisible();
  await expect(page.getByTestId('project-page').getByText('Unlisted').first()).toBeVisible();

  // The model page as its owner.
  await row.getByTestId('project-model-name').click();
  await expect(page).toHaveURL(new RegExp(`/models/${modelId}$`));
  await expect(page.getByTestId('model-name')).toHaveText('shapes detector');
  await expect(page.getByTestId('model-page').getByText('Unlisted')).toBeVisible();
  await expect(page.getByTestId('model-file-size')).toHaveText(size);
  await shot(page, '06-model-owner');
  expect(await seriousViolations(page), 'model page').toEqual([]);

  // Signed out, in a fresh browser context: the unlisted model opens read-only.
  const guest = await browser.newContext();
  const anon = await guest.newPage();
  await anon.goto(`/models/${modelId}`);
  await expect(anon.getByTestId('model-name')).toHaveText('shapes detector');
  await expect(anon.getByTestId('model-status')).toHaveText('Trained');
  await expect(anon.getByTestId('public-signup')).toBeVisible();
  for (const name of ['Edit', 'Share', 'Delete']) await expect(anon.getByRole('button', { name })).toHaveCount(0);
  await expect(anon.getByRole('link', { name: 'Download shapes3-detect.onnx' })).toBeVisible();
  await shot(anon, '07-model-signed-out');
  await anon.getByTestId('model-project-link').click();
  await expect(anon.getByTestId('project-name')).toHaveText('Shapes e2e');
  await expect(anon.getByTestId('project-model')).toHaveCount(1);
  await expect(anon.getByRole('button', { name: /Move .* (up|down)/ })).toHaveCount(0);
  await shot(anon, '08-project-signed-out');
  await guest.close();

  // Delete the project: a project with models asks first, naming how many go with it; then it
  // and its model leave the lists, with an undo in the notification.
  await page.goto(projectUrl);
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete “Shapes e2e”?' });
  await expect(confirm).toContainText('The project and its 1 model go to the trash.');
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`${projectUrl}$`));
  await expect(page.getByTestId('project-deleted')).toHaveCount(0);
  await page.getByRole('button', { name: 'More' }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete project and 1 model' }).click();
  await expect(page).toHaveURL(/\/projects$/);
  const toast = page.getByTestId('notification').filter({ hasText: 'Project “Shapes e2e” and its models moved to the trash.' });
  await expect(toast.getByRole('button', { name: 'Undo' })).toBeVisible();
  await shot(page, '09-deleted-with-undo');
  await expect(page.getByTestId('project-card')).toHaveCount(0);
  await page.getByTestId('sidebar').getByRole('link', { name: 'Models' }).click();
  await expect(page.getByTestId('empty-state')).toContainText('No models yet');

  // Both are in the trash with their sizes; restoring the project brings the model back too.
  await page.goto('/trash');
  await expect(page.getByTestId('trash-row')).toHaveCount(2);
  const projRow = page.locator('[data-testid="trash-row"][data-type="project"]');
  const modelRow = page.locator('[data-testid="trash-row"][data-type="model"]');
  await expect(projRow.getByTestId('trash-name')).toHaveText('Shapes e2e');
  await expect(modelRow.getByTestId('trash-name')).toHaveText('shapes detector');
  await expect(modelRow.getByTestId('trash-size')).toHaveText(size);
  await expect(projRow.getByTestId('trash-expires')).toHaveText(/in (30|29) days/);
  await expect(modelRow.getByRole('button', { name: 'Restore shapes detector' })).toBeDisabled();
  await shot(page, '10-trash');
  expect(await seriousViolations(page), 'trash page').toEqual([]);
  await projRow.getByRole('button', { name: 'Restore Shapes e2e' }).click();
  await expect(page.getByText('“Shapes e2e” restored.')).toBeVisible();
  await expect(page.getByTestId('empty-state')).toContainText('The trash is empty');
  await shot(page, '11-trash-restored');

  await page.goto(projectUrl);
  await expect(page.getByTestId('project-model').filter({ hasText: 'shapes detector' })).toBeVisible();
  await page.goto('/models');
  await expect(page.getByTestId('model-card').filter({ hasText: 'shapes detector' })).toBeVisible();
});
