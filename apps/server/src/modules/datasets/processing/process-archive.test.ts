import { createHash } from 'node:crypto';
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EntrySource } from './archive.js';
import { makeThumbnail, processArchive, type ProcessedImage, type ProcessingProgress, type ProcessOptions } from './process-archive.js';
import { buildTar, buildZip, makeImage, tempDir, yoloEntries, type TempDir, type ZipEntrySpec } from './test-archives.js';
import type { DatasetTask } from './types.js';
import { reportToText } from './validate.js';

const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../../shared/fixtures/models');

let tmp: TempDir;
beforeAll(async () => {
  tmp = await tempDir();
});
afterAll(async () => {
  await tmp.cleanup();
});

let counter = 0;
async function zipFile(entries: readonly ZipEntrySpec[]): Promise<string> {
  return tmp.write(`t${counter++}.zip`, buildZip(entries));
}

async function run(archivePath: string, task: DatasetTask = 'detect', extra: Partial<ProcessOptions> = {}) {
  const images: Array<Omit<ProcessedImage, 'data'> & { sha: string }> = [];
  const result = await processArchive({
    archivePath,
    task,
    onImage: (image) => {
      const { data, ...rest } = image;
      images.push({ ...rest, sha: createHash('sha256').update(data).digest('hex') });
    },
    ...extra,
  });
  return { result, images };
}

async function readSource(archivePath: string, source: EntrySource): Promise<Buffer> {
  const handle = await open(archivePath, 'r');
  try {
    const raw = Buffer.alloc(source.compressedSize);
    await handle.read(raw, 0, raw.length, source.dataOffset);
    return source.compressionMethod === 8 ? zlib.inflateRawSync(raw) : raw;
  } finally {
    await handle.close();
  }
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const box = (cls: number) => `${cls} 0.5 0.5 0.25 0.25\n`;

describe('processArchive: fixtures', () => {
  it('processes shapes3.zip (detect, HUB layout) with the stats of its README', async () => {
    const archivePath = path.join(FIXTURES, 'shapes3.zip');
    const progress: ProcessingProgress[] = [];
    const { result, images } = await run(archivePath, 'detect', { onProgress: (p) => progress.push(p) });
    expect(result.report.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.fatal).toBeNull();
    expect(result.layout).toMatchObject({ kind: 'yolo', root: 'shapes3', yamlPath: 'shapes3/data.yaml' });
    expect(result.stats?.summary).toEqual({
      classes: ['red_square', 'green_circle', 'blue_triangle'],
      classCount: 3,
      images: 160,
      train: 120,
      val: 30,
      test: 10,
    });
    const hub = result.stats!.hub;
    expect([hub.train, hub.val, hub.test].map((s) => [s?.image_stats.total, s?.instance_stats.total])).toEqual([
      [120, 301],
      [30, 80],
      [10, 25],
    ]);
    // Per-class numbers computed independently from the label files with Python.
    expect(hub.train).toEqual({
      instance_stats: { total: 301, per_class: [101, 105, 95] },
      image_stats: { total: 120, unlabelled: 0, per_class: [73, 76, 73] },
    });
    expect(hub.test?.instance_stats.per_class).toEqual([5, 9, 11]);
    expect(result.images).toBe(160);
    expect(images).toHaveLength(160);

    const test8 = images.find((i) => i.name === 'test_0008.png')!;
    expect(test8).toMatchObject({
      split: 'test',
      entryName: 'shapes3/images/test/test_0008.png',
      width: 100,
      height: 140,
      format: 'png',
      labelEntry: 'shapes3/labels/test/test_0008.txt',
    });
    expect(test8.labels.length).toBeGreaterThan(0);
    expect(test8.labels.every((r) => r.length === 5)).toBe(true);
    // The original bytes can be served from the archive by byte range: same as the fixture file.
    const original = await readSource(archivePath, test8.source);
    expect(sha(original)).toBe(test8.sha);
    const { readFile } = await import('node:fs/promises');
    expect(sha(await readFile(path.join(FIXTURES, 'test-images/test_0008.png')))).toBe(test8.sha);

    expect(progress[0].phase).toBe('listing');
    expect(progress.at(-1)).toMatchObject({ phase: 'done', done: 160, total: 160 });
  });

  it('processes shapes3-cls.zip (classify) with alphabetical classes', async () => {
    const { result, images } = await run(path.join(FIXTURES, 'shapes3-cls.zip'), 'classify');
    expect(result.report.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.layout).toMatchObject({ kind: 'classify', root: 'shapes3-cls', yamlPath: null });
    expect(result.stats?.summary).toEqual({
      classes: ['blue_triangle', 'green_circle', 'red_square'],
      classCount: 3,
      images: 406,
      train: 301,
      val: 80,
      test: 25,
    });
    expect(result.stats?.hub.train).toEqual({
      instance_stats: { total: 301, per_class: [95, 105, 101] },
      image_stats: { total: 301, unlabelled: 0, per_class: [95, 105, 101] },
    });
    const one = images.find((i) => i.entryName === 'shapes3-cls/test/red_square/' + i.name)!;
    expect(one).toMatchObject({ split: 'test', className: 'red_square', labels: [[2]], width: 64, height: 64 });
  });

  it('refuses shapes3.zip when the dataset task is classify', async () => {
    const { result, images } = await run(path.join(FIXTURES, 'shapes3.zip'), 'classify');
    expect(result.ok).toBe(false);
    expect(result.fatal?.code).toBe('dataset/task-mismatch');
    expect(images).toHaveLength(0);
  });
});

describe('processArchive: layouts', () => {
  const images = [
    { split: 'train' as const, name: 'a.jpg', label: box(0) + box(1) },
    { split: 'train' as const, name: 'b.png', label: box(1) },
    { split: 'val' as const, name: 'c.jpg', label: box(0) },
  ];

  it.each([
    ['HUB name/name.yaml', { prefix: 'mine', yamlName: 'mine.yaml' }, 'mine'],
    ['flat root', {}, ''],
    ['one top folder', { prefix: 'export' }, 'export'],
    ['two wrapping folders', { prefix: 'outer/inner' }, 'outer/inner'],
  ])('detect, %s', async (_label, options, root) => {
    const archive = await zipFile(await yoloEntries({ ...options, images, method: 'deflate' }));
    const { result, images: seen } = await run(archive);
    expect(result.report.errors).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.layout?.root).toBe(root);
    expect(result.stats?.summary).toMatchObject({ classes: ['red', 'green'], images: 3, train: 2, val: 1, test: 0 });
    expect(result.stats?.hub.train?.instance_stats).toEqual({ total: 3, per_class: [1, 2] });
    expect(result.report.warnings.map((w) => w.code)).toEqual(['dataset/no-test']);
    const a = seen.find((i) => i.name === 'a.jpg')!;
    expect(a.labels).toEqual([
      [0, 0.5, 0.5, 0.25, 0.25],
      [1, 0.5, 0.5, 0.25, 0.25],
    ]);
    expect(a.source.compressionMethod).toBe(8);
    expect(sha(await readSource(archive, a.source))).toBe(a.sha);
  });

  it('reads labels a window of images at a time with the same outcome (bounded memory, ADR 0042)', async () => {
    const many = Array.from({ length: 11 }, (_, i) => ({
      split: i % 4 === 3 ? ('val' as const) : ('train' as const),
      name: `img${i}.${i % 2 ? 'png' : 'jpg'}`,
      label: i === 5 ? '7 0.5 0.5 0.2 0.2\n' : box(i % 2) + (i % 3 ? box(1) : ''),
    }));
    const archive = await zipFile(await yoloEntries({ images: many, method: 'deflate' }));
    const whole = await run(archive, 'detect', { concurrency: 1 });
    const windowed = await run(archive, 'detect', { concurrency: 1, labelWindow: 3 });
    expect(whole.result.stats?.summary).toMatchObject({ images: 10 });
    expect(whole.result.report.leftOut!.map((l) => l.image)).toEqual(['images/train/img5.png']);
    expect(windowed.result).toEqual(whole.result);
    const byName = (xs: typeof whole.images) => [...xs].sort((a, b) => a.name.localeCompare(b.name));
    expect(byName(windowed.images)).toEqual(byName(whole.images));
  });

  it('Roboflow train/valid/test with ../ paths, in a top folder', async () => {
    const yaml = 'train: ../train/images\nval: ../valid/images\ntest: ../test/images\n\nnc: 2\nnames: [red, green]\n';
    const archive = await zipFile(
      await yoloEntries({
        prefix: 'Shapes.v1i.yolov8',
        style: 'roboflow',
        yaml,
        images: [...images.map((i) => ({ ...i, split: i.split === 'val' ? ('valid' as const) : i.split })), { split: 'test', name: 'd.jpg', label: box(1) }],
      }),
    );
    const { result } = await run(archive);
    expect(result.ok).toBe(true);
    expect(result.layout).toMatchObject({ kind: 'roboflow', root: 'Shapes.v1i.yolov8' });
    expect(result.stats?.summary).toMatchObject({ train: 2, val: 1, test: 1 });
    expect(result.report.warnings).toEqual([]);
  });

  it('segment polygons', async () => {
    const poly = '1 0.1 0.1 0.6 0.1 0.6 0.5 0.1 0.5\n';
    const archive = await zipFile(
      await yoloEntries({
        images: [
          { split: 'train', name: 'a.jpg', label: poly },
          { split: 'val', name: 'b.jpg', label: poly },
        ],
      }),
    );
    const { result, images: seen } = await run(archive, 'segment');
    expect(result.ok).toBe(true);
    expect(seen[0].labels).toEqual([[1, 0.1, 0.1, 0.6, 0.1, 0.6, 0.5, 0.1, 0.5]]);
  });

  it('segment task with box labels says so once, on top', async () => {
    const archive = await zipFile(await yoloEntries({ images }));
    const { result } = await run(archive, 'segment');
    expect(result.ok).toBe(false);
    expect(result.report.errors[0].code).toBe('dataset/task-mismatch');
    // Each pair is left out with its first reason (ADR 0029): three pairs, three value-count findings.
    expect(result.report.countsByCode['label/value-count']).toBe(3);
    expect(result.report.leftOutCount).toBe(3);
  });

  it('classify folders', async () => {
    const img = await makeImage('jpeg');
    const archive = await zipFile([
      { name: 'pets/train/dog/1.jpg', data: img },
      { name: 'pets/train/cat/2.jpg', data: img },
      { name: 'pets/train/cat/3.jpg', data: img },
      { name: 'pets/valid/cat/4.jpg', data: img },
      { name: 'pets/valid/dog/5.jpg', data: img },
    ]);
    const { result, images: seen } = await run(archive, 'classify');
    expect(result.ok).toBe(true);
    expect(result.stats?.summary).toEqual({ classes: ['cat', 'dog'], classCount: 2, images: 5, train: 3, val: 2, test: 0 });
    expect(result.stats?.hub.train?.instance_stats.per_class).toEqual([2, 1]);
    expect(seen.find((i) => i.name === '1.jpg')).toMatchObject({ className: 'dog', labels: [[1]] });
  });

  it('an uncompressed tar of the same dataset', async () => {
    const entries = await yoloEntries({ prefix: 'ds', images });
    const archive = await tmp.write('ds.tar', buildTar(entries.map((e) => ({ name: e.name, data: e.data }))));
    const { result, images: seen } = await run(archive);
    expect(result.ok).toBe(true);
    expect(result.stats?.summary.images).toBe(3);
    const a = seen.find((i) => i.name === 'a.jpg')!;
    expect(a.source).toMatchObject({ format: 'tar', compressionMethod: 0 });
    expect(sha(await readSource(archive, a.source))).toBe(a.sha);
  });

  it('unlabelled images are warnings, counted as unlabelled', async () => {
    const archive = await zipFile(
      await yoloEntries({ images: [...images, { split: 'train', name: 'bg.jpg' }, { split: 'train', name: 'empty.jpg', label: '' }] }),
    );
    const { result } = await run(archive);
    expect(result.ok).toBe(true);
    expect(result.report.warnings).toContainEqual(expect.objectContaining({ code: 'image/unlabelled', file: 'images/train/bg.jpg' }));
    expect(result.stats?.hub.train?.image_stats).toMatchObject({ total: 4, unlabelled: 2 });
  });
});

describe('processArchive: bad input', () => {
  it('not a zip', async () => {
    const { result } = await run(await tmp.write('notes.zip', 'hello, I am a text file'));
    expect(result).toMatchObject({ ok: false, fatal: { code: 'archive/not-a-zip' }, layout: null, stats: null, images: 0 });
    expect(result.report.errors[0].code).toBe('archive/not-a-zip');
  });

  it('zip-slip: refused before anything is read, nothing written', async () => {
    const entries = await yoloEntries({ prefix: 'ds', images: [{ split: 'train', name: 'a.jpg', label: box(0) }] });
    const archive = await zipFile([...entries, { name: 'ds/../../../evil.sh', data: '#!/bin/sh\necho pwned\n' }]);
    const before = await readdir(tmp.path);
    const { result, images } = await run(archive);
    expect(result.fatal).toEqual({ code: 'archive/unsafe-path', message: expect.stringContaining('ds/../../../evil.sh'), file: 'ds/../../../evil.sh' });
    expect(images).toHaveLength(0);
    expect(await readdir(tmp.path)).toEqual(before);
  });

  it('zip bomb by declared ratio', async () => {
    const entries = await yoloEntries({ images: [{ split: 'train', name: 'a.jpg', label: box(0) }] });
    const { result, images } = await run(
      await zipFile([...entries, { name: 'images/train/huge.jpg', data: Buffer.alloc(8 * 1024 * 1024), method: 'deflate' }]),
    );
    expect(result.fatal).toMatchObject({ code: 'archive/bomb', file: 'images/train/huge.jpg' });
    expect(images).toHaveLength(0);
  });

  it('zip bomb by an entry inflating past its declared size', async () => {
    const entries = await yoloEntries({
      images: [
        { split: 'train', name: 'a.jpg', label: box(0) },
        { split: 'val', name: 'b.jpg', label: box(0) },
      ],
    });
    const liar: ZipEntrySpec = { name: 'images/train/liar.jpg', data: Buffer.alloc(4 * 1024 * 1024, 1), method: 'deflate', declaredSize: 20_000 };
    const { result } = await run(await zipFile([...entries, liar, { name: 'labels/train/liar.txt', data: box(0) }]));
    expect(result.ok).toBe(false);
    expect(result.fatal).toMatchObject({ code: 'archive/bomb', file: 'images/train/liar.jpg' });
    expect(result.stats).toBeNull();
  });

  it('refuses by total declared size (limits are configurable)', async () => {
    const archive = await zipFile(await yoloEntries({ images: [{ split: 'train', name: 'a.jpg', label: box(0) }] }));
    const { result } = await run(archive, 'detect', { limits: { maxTotalUncompressedBytes: 100 } });
    expect(result.fatal?.code).toBe('archive/too-large');
  });

  it('a bad label line leaves its image + label pair out, listed with the file and the line; the rest is Ready (ADR 0029)', async () => {
    const archive = await zipFile(
      await yoloEntries({
        prefix: 'ds',
        images: [
          { split: 'train', name: 'a.jpg', label: `${box(0)}0 0.5 1.7 0.1 0.1\n` },
          { split: 'train', name: 'b.jpg', label: '1 0.5 0.5 0.1\n' },
          { split: 'train', name: 'd.jpg', label: box(1) },
          { split: 'val', name: 'c.jpg', label: `${box(1)}${box(1)}2 0.5 0.5 0.1 0.1\n` },
        ],
      }),
    );
    const { result, images } = await run(archive);
    expect(result.ok).toBe(true);
    expect(result.fatal).toBeNull();
    expect(result.report.errors).toEqual([]);
    const leftOut = [...result.report.leftOut!].sort((x, y) => x.image.localeCompare(y.image));
    expect(leftOut).toEqual([
      expect.objectContaining({ image: 'ds/images/train/a.jpg', file: 'ds/labels/train/a.txt', line: 2, code: 'label/out-of-range' }),
      expect.objectContaining({ image: 'ds/images/train/b.jpg', file: 'ds/labels/train/b.txt', line: 1, code: 'label/value-count' }),
      expect.objectContaining({ image: 'ds/images/val/c.jpg', file: 'ds/labels/val/c.txt', line: 3, code: 'label/class-id' }),
    ]);
    expect(leftOut[2].message).toMatch(/2 classes/);
    expect(images.map((i) => i.name)).toEqual(['d.jpg']);
    expect(result.stats?.summary).toMatchObject({ images: 1, train: 1, val: 0 });
    const text = reportToText(result.report);
    expect(text).toContain('3 images left out');
    expect(text).toContain('ds/images/train/a.jpg  [label/out-of-range]  ds/labels/train/a.txt:2: ');
  });

  it('when every train pair is left out, nothing is usable and the dataset fails', async () => {
    const archive = await zipFile(
      await yoloEntries({
        images: [
          { split: 'train', name: 'a.jpg', label: '5 0.5 0.5 0.1 0.1\n' },
          { split: 'val', name: 'b.jpg', label: box(0) },
        ],
      }),
    );
    const { result } = await run(archive);
    expect(result.ok).toBe(false);
    expect(result.fatal).toMatchObject({ code: 'dataset/nothing-usable' });
    expect(result.report.leftOut).toEqual([expect.objectContaining({ image: 'images/train/a.jpg', code: 'label/class-id' })]);
  });

  it('a corrupt image leaves its pair out, naming the file; the others are still handed over', async () => {
    const archive = await zipFile(
      await yoloEntries({
        images: [
          { split: 'train', name: 'good.jpg', label: box(0) },
          { split: 'train', name: 'broken.jpg', label: box(0), image: Buffer.from('this is not a jpeg at all, just text pretending') },
          { split: 'val', name: 'cut.png', label: box(1), image: (await makeImage('png', 64, 64)).subarray(0, 60) },
        ],
      }),
    );
    const { result, images } = await run(archive);
    expect(result.ok).toBe(true);
    // Images are checked two at a time, so the two findings may come in either order.
    const found = result.report.leftOut!.map((e) => [e.file, e.code]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(found).toEqual([
      ['images/train/broken.jpg', 'image/corrupt'],
      ['images/val/cut.png', expect.stringMatching(/^image\/(corrupt|truncated)$/)],
    ]);
    expect(images.map((i) => i.name)).toEqual(['good.jpg']);
    expect(result.stats?.summary.images).toBe(1);
  });

  it('a damaged entry (bad CRC) leaves that pair out only', async () => {
    const entries = await yoloEntries({
      images: [
        { split: 'train', name: 'a.jpg', label: box(0) },
        { split: 'val', name: 'b.jpg', label: box(0) },
      ],
    });
    const damaged = entries.map((e) => (e.name === 'images/val/b.jpg' ? { ...e, crc32: 42 } : e));
    const { result, images } = await run(await zipFile(damaged));
    expect(result.fatal).toBeNull();
    expect(result.report.errors).toEqual([]);
    expect(result.report.leftOut).toEqual([expect.objectContaining({ image: 'images/val/b.jpg', file: 'images/val/b.jpg', code: 'archive/crc-mismatch' })]);
    expect(images).toHaveLength(1);
  });

  it('no yaml', async () => {
    const { result } = await run(await zipFile(await yoloEntries({ prefix: 'ds', yaml: null, images: [{ split: 'train', name: 'a.jpg', label: box(0) }] })));
    expect(result.fatal?.code).toBe('dataset/no-yaml');
    expect(result.fatal?.message).toContain('"ds/"');
  });

  it('yaml naming a missing split', async () => {
    const yaml = 'train: images/train\nval: images/val\ntest: images/holdout\nnames: [a]\n';
    const { result } = await run(
      await zipFile(
        await yoloEntries({
          yaml,
          images: [
            { split: 'train', name: 'a.jpg', label: box(0) },
            { split: 'val', name: 'b.jpg', label: box(0) },
          ],
        }),
      ),
    );
    expect(result.fatal).toMatchObject({ code: 'dataset/missing-split', file: 'data.yaml' });
    expect(result.fatal?.message).toContain('test: images/holdout');
  });

  it('an invalid yaml lists every problem, the first as the fatal one', async () => {
    const yaml = 'train: images/train\nnc: 5\nnames: [a, b]\n';
    const { result } = await run(await zipFile(await yoloEntries({ yaml, images: [{ split: 'train', name: 'a.jpg', label: box(0) }] })));
    expect(result.fatal).toMatchObject({ code: 'dataset/yaml-invalid', file: 'data.yaml', message: expect.stringContaining('nc: 5') });
    expect(result.report.errors.map((e) => e.message)).toEqual([expect.stringContaining('nc: 5'), expect.stringContaining('no val:')]);
    expect(result.report.errors[0].line).toBe(2);
  });

  it('0 images', async () => {
    const { result } = await run(
      await zipFile([
        { name: 'ds/data.yaml', data: 'train: images/train\nval: images/val\nnames: [a]\n' },
        { name: 'ds/labels/train/a.txt', data: box(0) },
      ]),
    );
    expect(result.fatal?.code).toBe('dataset/no-images');
    const empty = await run(await zipFile([]));
    expect(empty.result.fatal?.code).toBe('dataset/no-images');
  });

  it('orphan labels are warnings: ultralytics never reads them', async () => {
    const entries = await yoloEntries({
      images: [
        { split: 'train', name: 'a.jpg', label: box(0) },
        { split: 'val', name: 'b.jpg', label: box(0) },
      ],
    });
    const archive = await zipFile([...entries, { name: 'labels/train/ghost.txt', data: box(0) }]);
    const { result } = await run(archive);
    expect(result.ok).toBe(true);
    expect(result.report.warnings).toContainEqual(expect.objectContaining({ code: 'label/orphan', file: 'labels/train/ghost.txt' }));
  });

  it('an unsupported task', async () => {
    const { result } = await run(path.join(FIXTURES, 'shapes3.zip'), 'semantic-segment' as DatasetTask);
    expect(result.fatal?.code).toBe('dataset/unsupported-task');
  });
});

describe('processArchive: control', () => {
  it('rethrows an onImage failure and stops', async () => {
    let calls = 0;
    await expect(
      processArchive({
        archivePath: path.join(FIXTURES, 'shapes3.zip'),
        task: 'detect',
        concurrency: 1,
        onImage: () => {
          calls++;
          if (calls === 3) throw new Error('storage is down');
        },
      }),
    ).rejects.toThrow('storage is down');
    expect(calls).toBe(3);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    let calls = 0;
    await expect(
      processArchive({
        archivePath: path.join(FIXTURES, 'shapes3.zip'),
        task: 'detect',
        signal: controller.signal,
        onImage: () => {
          if (++calls === 5) controller.abort(new Error('cancelled'));
        },
      }),
    ).rejects.toThrow('cancelled');
    expect(calls).toBeLessThan(10);
  });
});

describe('makeThumbnail', () => {
  it('fits the image in 256 px as jpeg by default, never enlarging', async () => {
    const big = await makeImage('jpeg', 800, 400);
    const meta = await sharp(await makeThumbnail(big)).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 256, 128]);
    const small = await sharp(await makeThumbnail(await makeImage('png', 40, 30), { format: 'webp' })).metadata();
    expect([small.format, small.width, small.height]).toEqual(['webp', 40, 30]);
  });

  it('applies EXIF orientation (the fast path is only for JPEGs without Exif)', async () => {
    const rotated = await sharp(await makeImage('jpeg', 400, 200))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    const meta = await sharp(await makeThumbnail(rotated)).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([128, 256, undefined]);
  });
});
