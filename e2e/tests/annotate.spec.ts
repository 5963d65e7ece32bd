import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { createVerifiedUser } from '../support/api';
import { uploadDatasetViaApi } from '../support/dataset-upload';

/** The annotation editor (ADR 0040) against the real server: labels saved per image with revisions (ADR 0037). */
const SHAPES = path.resolve(import.meta.dirname, '../../../shared/fixtures/models/shapes3.zip');
const SHOTS = path.resolve(import.meta.dirname, '../screenshots');
fs.mkdirSync(SHOTS, { recursive: true });

/**
 * A real segment archive: shapes3 with each box written as its four-corner polygon (shapes3.zip itself holds
 * detect rows, which a segment dataset refuses). Built with Python's zipfile, the one archiver on the machine.
 */
function segmentArchive(): Buffer {
  const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'annotate-seg-')), 'shapes3-seg.zip');
  const script = [
    'import sys, zipfile',
    'src, dst = sys.argv[1], sys.argv[2]',
    'with zipfile.ZipFile(src) as a, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as b:',
    '    for info in a.infolist():',
    '        data = a.read(info)',
    '        if "/labels/" in info.filename and info.filename.endswith(".txt"):',
    '            rows = []',
    '            for line in data.decode().split("\\n"):',
    '                p = line.split()',
    '                if len(p) != 5: continue',
    '                c, x, y, w, h = p[0], *map(float, p[1:])',
    '                x1, y1, x2, y2 = x - w / 2, y - h / 2, x + w / 2, y + h / 2',
    '                rows.append(" ".join([c] + ["%.6f" % v for v in (x1, y1, x2, y1, x2, y2, x1, y2)]))',
    '            data = ("\\n".join(rows) + "\\n").encode()',
    '        elif info.filename.endswith("data.yaml"):',
    '            data = data.replace(b"detection, YOLO xywh", b"segmentation, YOLO polygon")',
    '        b.writestr(info, data)',
  ].join('\n');
  execFileSync('/usr/bin/python3', ['-c', script, SHAPES, out]);
  return fs.readFileSync(out);
}
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `annotate-${name}.png`) });

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
type Labels = { revision: number; labels: number[][] };

async function userWithDataset(browser: Browser, task: string, viewport: { width: number; height: number }, touch = false) {
  const context = await browser.newContext({ viewport, hasTouch: touch, isMobile: touch });
  const page = await context.newPage();
  const user = await createVerifiedUser(page.request, 'annotate');
  expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const me = (await (await page.request.get('/v1/users/me')).json()).data;
  const archive = task === 'segment' ? segmentArchive() : fs.readFileSync(SHAPES);
  const id = await uploadDatasetViaApi(page.request, me.id, `Annotate ${task}`, task, `shapes3-${task}.zip`, archive);
  await expect.poll(async () => (await (await page.request.get(`/v1/datasets/${id}`)).json()).data.status, { timeout: 90_000 }).toBe('Ready');
  return { context, page, id, user };
}

/** The canvas's view (data attributes of the one transform) and its place on the page: image pixels → page pixels. */
async function viewOf(page: Page) {
  const svg = page.getByTestId('annotate-canvas');
  const rect = (await svg.boundingBox())!;
  const [scale, tx, ty] = await Promise.all(['data-scale', 'data-tx', 'data-ty'].map(async (a) => Number(await svg.getAttribute(a))));
  return {
    toPage: (x: number, y: number) => ({ x: rect.x + tx! + x * scale!, y: rect.y + ty! + y * scale! }),
    toImage: (px: number, py: number) => ({ x: (px - rect.x - tx!) / scale!, y: (py - rect.y - ty!) / scale! }),
  };
}

/** The image's size in pixels (shapes3's images are 120 to 320 px: points of the tests are fractions of it). */
const imageSize = (page: Page) =>
  page
    .getByTestId('annotate-view')
    .locator('image')
    .evaluate((img) => ({ w: Number(img.getAttribute('width')), h: Number(img.getAttribute('height')) }));

async function openEditor(page: Page, id: string) {
  await page.goto(`/datasets/${id}`);
  await page.getByTestId('annotate').click();
  await expect(page).toHaveURL(new RegExp(`/datasets/${id}/annotate`));
  // The first image and its labels (a shared machine can be slow on a first visit).
  await expect(page.getByTestId('annotate-canvas')).toBeVisible({ timeout: 30_000 });
  // Wait for the image and the fitted view.
  await expect.poll(async () => Number(await page.getByTestId('annotate-canvas').getAttribute('data-tx'))).not.toBe(0);
}

const drawnBoxes = (page: Page) =>
  page.getByTestId('label').evaluateAll((gs) =>
    gs.map((g) => ({
      cls: Number(g.getAttribute('data-cls')),
      x: Number(g.getAttribute('data-x')),
      y: Number(g.getAttribute('data-y')),
      w: Number(g.getAttribute('data-w')),
      h: Number(g.getAttribute('data-h')),
    })),
  );

function expectClose(actual: Box & { cls: number }, expected: Box & { cls: number }) {
  expect(actual.cls).toBe(expected.cls);
  for (const k of ['x', 'y', 'w', 'h'] as const) expect(Math.abs(actual[k] - expected[k]), `${k}: ${actual[k]} vs ${expected[k]}`).toBeLessThanOrEqual(0.5);
}

async function currentLabels(page: Page, id: string): Promise<Labels & { imageId: string }> {
  const imageId = new URL(page.url()).searchParams.get('image')!;
  return { imageId, ...((await (await page.request.get(`/v1/datasets/${id}/images/${imageId}/labels`)).json()).data as Labels) };
}

for (const device of [
  { name: '1440', viewport: { width: 1440, height: 1000 }, touch: false },
  { name: 'tablet', viewport: { width: 1024, height: 1366 }, touch: true },
]) {
  test(`draws 3 boxes, changes a class, undoes and redoes, and finds them exactly after a reload (${device.name})`, async ({ browser }) => {
    test.setTimeout(180_000);
    const { context, page, id } = await userWithDataset(browser, 'detect', device.viewport, device.touch);
    await openEditor(page, id);
    const before = (await drawnBoxes(page)).length;
    const view = await viewOf(page);
    const size = await imageSize(page);
    const at = (fx: number, fy: number) => ({ x: fx * size.w, y: fy * size.h });
    const cdp = device.touch ? await context.newCDPSession(page) : null;

    /** A drag between two image points, by mouse or by one finger (touch events become pointer events). */
    const drag = async (from: { x: number; y: number }, to: { x: number; y: number }) => {
      const a = view.toPage(from.x, from.y);
      const b = view.toPage(to.x, to.y);
      if (cdp) {
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: a.x, y: a.y }] });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 }] });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: b.x, y: b.y }] });
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      } else {
        await page.mouse.move(a.x, a.y);
        await page.mouse.down();
        await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2);
        await page.mouse.move(b.x, b.y);
        await page.mouse.up();
      }
      // What the browser delivered, in image pixels (page coordinates are whole CSS pixels or fractions of them).
      const p = view.toImage(a.x, a.y);
      const q = view.toImage(b.x, b.y);
      return { x: Math.min(p.x, q.x), y: Math.min(p.y, q.y), w: Math.abs(p.x - q.x), h: Math.abs(p.y - q.y) };
    };

    // Box 1 (class 1 "circle"? the dataset's first class), box 2 after picking class 2 with its number key.
    const b1 = await drag(at(0.1, 0.15), at(0.45, 0.4));
    await page.keyboard.press('Escape');
    await page.keyboard.press('2');
    const b2 = await drag(at(0.85, 0.8), at(0.55, 0.55));
    // Box 3 drawn, then moved and grown with the keys (Shift+arrow 10 px, Alt+arrow resizes by 1 px).
    const b3raw = await drag(at(0.55, 0.1), at(0.7, 0.3));
    await page.keyboard.press('Shift+ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Alt+ArrowRight');
    await page.keyboard.press('Alt+ArrowRight');
    const b3 = { ...b3raw, x: b3raw.x + 10, y: b3raw.y + 1, w: b3raw.w + 2 };
    // The third box's class changed to 3, undone, redone.
    await page.keyboard.press('3');
    await page.keyboard.press('Control+z');
    expect((await drawnBoxes(page)).at(-1)!.cls).toBe(1);
    await page.keyboard.press('Control+Shift+Z');
    const expected = [
      { cls: 0, ...b1 },
      { cls: 1, ...b2 },
      { cls: 2, ...b3 },
    ];
    const drawn = (await drawnBoxes(page)).slice(before);
    expect(drawn).toHaveLength(3);
    drawn.forEach((d, i) => expectClose(d, expected[i]!));
    await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
    await shot(page, `boxes-${device.name}`);

    await page.reload();
    await expect(page.getByTestId('annotate-canvas')).toBeVisible({ timeout: 30_000 });
    await expect.poll(async () => (await drawnBoxes(page)).length).toBe(before + 3);
    (await drawnBoxes(page)).slice(before).forEach((d, i) => expectClose(d, expected[i]!));
    // And the server holds the same boxes, normalised.
    const saved = await currentLabels(page, id);
    saved.labels
      .slice(before)
      .forEach(([cls, cx, cy, w, h], i) =>
        expectClose({ cls: cls!, x: (cx! - w! / 2) * size.w, y: (cy! - h! / 2) * size.h, w: w! * size.w, h: h! * size.h }, expected[i]!),
      );
    await context.close();
  });
}

test('draws a polygon on a segment dataset', async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page, id } = await userWithDataset(browser, 'segment', { width: 1440, height: 1000 });
  await openEditor(page, id);
  const before = await page.getByTestId('label').count();
  const view = await viewOf(page);
  const size = await imageSize(page);
  const points = [
    [0.1, 0.1],
    [0.7, 0.15],
    [0.5, 0.8],
  ].map(([fx, fy]) => [fx! * size.w, fy! * size.h] as const);
  for (const [x, y] of points) await page.mouse.click(view.toPage(x, y).x, view.toPage(x, y).y);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('label')).toHaveCount(before + 1);
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  await shot(page, 'polygon');
  const saved = await currentLabels(page, id);
  const row = saved.labels.at(-1)!;
  expect(row).toHaveLength(7);
  points.forEach(([x, y], i) => {
    expect(Math.abs(row[1 + 2 * i]! * size.w - x)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(row[2 + 2 * i]! * size.h - y)).toBeLessThanOrEqual(0.5);
  });
  await context.close();
});

test('two browser contexts editing the same image see the conflict and lose nothing', async ({ browser }) => {
  test.setTimeout(180_000);
  const a = await userWithDataset(browser, 'detect', { width: 1440, height: 1000 });
  // The same user in a second browser (another device): its own cookies, the same dataset.
  const other = await browser.newContext({ viewport: { width: 1440, height: 1000 } });
  const b = await other.newPage();
  expect((await b.request.post('/v1/auth/signin', { data: { email: a.user.email, password: a.user.password } })).status()).toBe(200);
  await openEditor(a.page, a.id);
  await openEditor(b, a.id);
  const before = await a.page.getByTestId('label').count();

  const dragIn = async (page: Page, from: [number, number], to: [number, number]) => {
    const view = await viewOf(page);
    const size = await imageSize(page);
    const p = view.toPage(from[0] * size.w, from[1] * size.h);
    const q = view.toPage(to[0] * size.w, to[1] * size.h);
    await page.mouse.move(p.x, p.y);
    await page.mouse.down();
    await page.mouse.move(q.x, q.y);
    await page.mouse.up();
  };
  // B edits while its network is down: the edit waits in the browser (offline), on top of revision 1.
  await other.setOffline(true);
  await dragIn(b, [0.55, 0.6], [0.9, 0.9]);
  await expect(b.getByTestId('save-state')).toHaveAttribute('data-state', 'offline');
  // A saves meanwhile: revision 2.
  await dragIn(a.page, [0.1, 0.1], [0.4, 0.4]);
  await expect(a.page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  // B is back: its save names revision 1 and is refused; both versions are shown.
  await other.setOffline(false);
  const dialog = b.getByTestId('labels-conflict');
  await expect(dialog).toBeVisible();
  await expect(b.getByTestId('conflict-theirs')).toContainText(`${before + 1} labels`);
  await expect(b.getByTestId('conflict-mine')).toContainText(`${before + 1} labels`);
  await shot(b, 'conflict');
  // Nothing was overwritten while the dialog is open.
  expect((await currentLabels(a.page, a.id)).labels).toHaveLength(before + 1);
  await b.getByRole('button', { name: 'Keep both' }).click();
  await expect(dialog).toBeHidden();
  await expect(b.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  const merged = await currentLabels(b, a.id);
  expect(merged.labels).toHaveLength(before + 2);
  await expect(b.getByTestId('label')).toHaveCount(before + 2);
  await other.close();
  await a.context.close();
});

test('the review filter lists unlabelled images and images changed since a version; the class counts follow a box drawn', async ({ browser }) => {
  test.setTimeout(180_000);
  const { context, page, id } = await userWithDataset(browser, 'detect', { width: 1440, height: 1000 });
  // Version 1 is saved at Ready (ADR 0038); two images lose their labels after it, through the editor's revisioned write.
  await expect
    .poll(async () => ((await (await page.request.get(`/v1/datasets/${id}/versions`)).json()).data as unknown[]).length, { timeout: 30_000 })
    .toBeGreaterThan(0);
  const images = (await (await page.request.get(`/v1/datasets/${id}/images?limit=200`)).json()).data.results as Array<{
    id: string;
    name: string;
    labels: number[][];
  }>;
  const cleared = images.filter((i) => i.labels.length).slice(1, 3);
  expect(cleared).toHaveLength(2);
  for (const img of cleared) {
    const read = (await (await page.request.get(`/v1/datasets/${id}/images/${img.id}/labels`)).json()).data as Labels;
    expect((await page.request.put(`/v1/datasets/${id}/images/${img.id}/labels`, { data: { revision: read.revision, labels: [] } })).status()).toBe(200);
  }
  const serverCounts = async () =>
    (await (await page.request.get(`/v1/datasets/${id}/class-counts`)).json()).data as { counts: Record<string, number>; unlabelled: number };
  const before = await serverCounts();
  await openEditor(page, id);

  // The counts beside the class buttons are the server's.
  const shownCounts = () =>
    page.getByTestId('class-count').evaluateAll((els) => Object.fromEntries(els.map((e) => [e.getAttribute('data-class'), Number(e.textContent)])));
  await expect.poll(shownCounts).toEqual(before.counts);

  const choose = async (option: string) => {
    await page.getByRole('combobox', { name: 'Show images' }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  };
  await choose('Unlabelled');
  await expect(page).toHaveURL(/filter=unlabelled/);
  await expect(page.getByTestId('annotate-position')).toHaveText(`Image 1 of ${before.unlabelled}`);
  await expect(page.getByTestId('annotate-image-row')).toHaveCount(before.unlabelled);
  const rowNames = await page.getByTestId('annotate-image-row').allInnerTexts();
  for (const img of cleared) expect(rowNames.some((r) => r.includes(img.name))).toBe(true);
  await expect(page.getByTestId('annotate-canvas')).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => Number(await page.getByTestId('annotate-canvas').getAttribute('data-tx'))).not.toBe(0);
  await expect(page.getByTestId('label')).toHaveCount(0);

  // A box drawn on the first unlabelled image (the first class): its count goes up by one once saved.
  const view = await viewOf(page);
  const size = await imageSize(page);
  const a = view.toPage(0.2 * size.w, 0.2 * size.h);
  const b = view.toPage(0.6 * size.w, 0.7 * size.h);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move(b.x, b.y);
  await page.mouse.up();
  await expect(page.getByTestId('save-state')).toHaveAttribute('data-state', 'saved');
  const first = Object.keys(before.counts)[0]!;
  await expect.poll(shownCounts).toEqual({ ...before.counts, [first]: before.counts[first]! + 1 });
  expect((await serverCounts()).counts[first]).toBe(before.counts[first]! + 1);
  await expect(page.getByTestId('review-summary')).toContainText(`${before.unlabelled - 1} unlabelled`);
  await shot(page, 'review-unlabelled');

  // Changed since version 1: the two images edited after it (one of them also drawn on now), nothing else.
  await choose('Changed since version…');
  await expect(page).toHaveURL(/filter=changed-since&since=1/);
  await expect(page.getByTestId('annotate-position')).toHaveText('Image 1 of 2');
  const changed = await page.getByTestId('annotate-image-row').allInnerTexts();
  expect(changed).toHaveLength(2);
  for (const img of cleared) expect(changed.some((r) => r.includes(img.name))).toBe(true);
  await choose('All images');
  await expect(page.getByTestId('annotate-position')).toHaveText(`Image 1 of ${images.length}`);
  await context.close();
});

test('a classify image shows the class a model suggests; A makes it the image class', async ({ browser }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  const page = await context.newPage();
  const user = await createVerifiedUser(page.request, 'annotatecls');
  expect((await page.request.post('/v1/auth/signin', { data: { email: user.email, password: user.password } })).status()).toBe(200);
  const me = (await (await page.request.get('/v1/users/me')).json()).data;
  const fixtures = path.dirname(SHAPES);
  const id = await uploadDatasetViaApi(
    page.request,
    me.id,
    'Annotate classify',
    'classify',
    'shapes3-cls.zip',
    fs.readFileSync(path.join(fixtures, 'shapes3-cls.zip')),
  );
  await expect.poll(async () => (await (await page.request.get(`/v1/datasets/${id}`)).json()).data.status, { timeout: 90_000 }).toBe('Ready');
  const upload = await page.request.post('/v1/models/upload', {
    multipart: {
      model_name: 'shapes3 classifier',
      project_name: 'Annotate classify',
      file: { name: 'shapes3-cls.onnx', mimeType: 'application/octet-stream', buffer: fs.readFileSync(path.join(fixtures, 'shapes3-cls.onnx')) },
    },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const modelId = (await upload.json()).data.id as string;
  const names = (await (await page.request.get(`/v1/datasets/${id}`)).json()).data.stats.classes as string[];
  const first = (await (await page.request.get(`/v1/datasets/${id}/images?limit=1`)).json()).data.results[0] as { id: string };

  // Pre-label the first image (ADR 0039), then give it another class than the model's, so accepting changes it.
  const job = await page.request.post(`/v1/datasets/${id}/prelabel`, { data: { modelId, imageIds: [first.id], conf: 0.01 } });
  expect(job.status(), await job.text()).toBe(202);
  const jobId = (await job.json()).data.id as string;
  await expect
    .poll(async () => (await (await page.request.get(`/v1/datasets/${id}/prelabel/${jobId}`)).json()).data.status, { timeout: 60_000 })
    .toBe('completed');
  const suggestion = (await (await page.request.get(`/v1/datasets/${id}/images/${first.id}/suggestions`)).json()).data.suggestions[0] as { className: string };
  expect(names).toContain(suggestion.className);
  const other = names.find((n) => n !== suggestion.className)!;
  const read = (await (await page.request.get(`/v1/datasets/${id}/images/${first.id}/labels`)).json()).data as Labels;
  expect(
    (await page.request.put(`/v1/datasets/${id}/images/${first.id}/labels`, { data: { revision: read.revision, labels: [], className: other } })).status(),
  ).toBe(200);

  await page.goto(`/datasets/${id}/annotate?i=0&image=${first.id}`);
  await expect(page.getByTestId('suggested-class')).toContainText(`Suggested class: ${suggestion.className}`, { timeout: 30_000 });
  const classes = page.getByTestId('annotate-classes');
  await expect(classes.getByRole('button', { name: new RegExp(suggestion.className) })).toHaveAttribute('data-suggested', 'true');
  await expect(classes.getByRole('button', { name: new RegExp(other) })).toHaveAttribute('aria-pressed', 'true');
  // Nothing scrolls sideways on a phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, 'classify-suggestion-390');
  await page.keyboard.press('a');
  await expect(page.getByTestId('suggestions-bar')).toBeHidden();
  await expect(classes.getByRole('button', { name: new RegExp(suggestion.className) })).toHaveAttribute('aria-pressed', 'true');
  await expect
    .poll(async () => (await (await page.request.get(`/v1/datasets/${id}/images/${first.id}/labels`)).json()).data.className)
    .toBe(suggestion.className);
  await context.close();
});
