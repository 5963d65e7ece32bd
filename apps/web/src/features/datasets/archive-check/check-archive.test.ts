import { describe, expect, it } from 'vitest';
import { listZipEntries, ZipListingError } from '../../../lib/zip-listing';
import { checkArchive } from './check-archive';
import { buildTestZip, deflateRaw, hubLayoutEntries, tinyPng, zipFile } from './test-zip';

/** A File that records which byte ranges were read through slice(). */
function spiedFile(bytes: Uint8Array, name = 'dataset.zip') {
  const file = zipFile(bytes, name);
  const reads: Array<[number, number]> = [];
  const slice = file.slice.bind(file);
  Object.defineProperty(file, 'slice', {
    value: (start = 0, end = file.size) => {
      reads.push([start, Math.min(end, file.size)]);
      return slice(start, end);
    },
  });
  return { file, reads, bytesRead: () => reads.reduce((n, [a, b]) => n + (b - a), 0) };
}

describe('listZipEntries (central directory only)', () => {
  it('lists names, sizes and directories, past a trailing comment', async () => {
    const zip = buildTestZip([{ name: 'a/' }, { name: 'a/b.txt', data: 'hello' }, { name: 'ü/ñ.jpg', data: 'x' }], { comment: 'made by a test' });
    const entries = await listZipEntries(zipFile(zip));
    expect(entries.map((e) => [e.name, e.isDirectory, e.uncompressedSize])).toEqual([
      ['a/', true, 0],
      ['a/b.txt', false, 5],
      ['ü/ñ.jpg', false, 1],
    ]);
  });

  it('reads zip64 end records and extra fields', async () => {
    const zip = buildTestZip(
      [
        { name: 'x/data.yaml', data: 'names: [a]' },
        { name: 'x/y.png', data: '12345678' },
      ],
      { zip64: true },
    );
    const entries = await listZipEntries(zipFile(zip));
    expect(entries.map((e) => [e.name, e.compressedSize, e.uncompressedSize])).toEqual([
      ['x/data.yaml', 10, 10],
      ['x/y.png', 8, 8],
    ]);
    expect(entries[1].localHeaderOffset).toBeGreaterThan(0);
  });

  it('never reads entry data: only the tail and the central directory', async () => {
    const big = new Uint8Array(2 * 1024 * 1024).fill(7);
    const zip = buildTestZip([...hubLayoutEntries(), { name: 'shapes/images/train/big.jpg', data: big }]);
    const spy = spiedFile(zip);
    const entries = await listZipEntries(spy.file);
    expect(entries).toHaveLength(hubLayoutEntries().length + 1);
    expect(spy.reads).toHaveLength(2);
    expect(spy.bytesRead()).toBeLessThan(70 * 1024);
  });

  it('refuses what is not a zip or is truncated', async () => {
    await expect(listZipEntries(zipFile(new TextEncoder().encode('definitely not a zip archive at all')))).rejects.toMatchObject({ kind: 'not-a-zip' });
    const zip = buildTestZip(hubLayoutEntries());
    await expect(listZipEntries(zipFile(zip.slice(0, zip.length - 30)))).rejects.toBeInstanceOf(ZipListingError);
  });
});

describe('checkArchive: the layout check before upload', () => {
  it('accepts the HUB layout and says what it found, per split', async () => {
    const result = await checkArchive(zipFile(buildTestZip(hubLayoutEntries())), 'detect');
    expect(result.status).toBe('ok');
    if (result.status !== 'ok') return;
    expect(result.summary.kind).toBe('yolo');
    expect(result.summary.yamlPath).toBe('shapes/data.yaml');
    expect(result.summary.description).toContain('YOLO layout in "shapes/"');
    expect(result.summary.splits).toEqual({ train: { dirs: ['shapes/images/train'], images: 3 }, val: { dirs: ['shapes/images/val'], images: 2 } });
    expect(result.issues.map((i) => i.code)).toEqual(['dataset/no-test']);
    expect(result).toMatchObject({ leftOut: [], leftOutCount: 0, usable: 5, task: 'detect' });
  });

  it('reads the yaml, the labels and each image header: pairs ultralytics would drop are listed, not blocking (ADR 0029)', async () => {
    const entries = hubLayoutEntries().map((e) =>
      e.name === 'shapes/labels/train/train_1.txt'
        ? { ...e, data: '0 0.5 0.5 0.2 0.2\n7 0.5 0.5 0.2 0.2\n' }
        : e.name === 'shapes/images/val/val_0.png'
          ? { ...e, data: tinyPng({ cut: true }) }
          : e,
    );
    const result = await checkArchive(zipFile(buildTestZip(entries)), 'detect');
    expect(result).toMatchObject({ status: 'ok', usable: 3, leftOutCount: 2 });
    if (result.status !== 'ok') return;
    expect([...result.leftOut].sort((a, b) => a.image.localeCompare(b.image))).toEqual([
      expect.objectContaining({ image: 'shapes/images/train/train_1.png', file: 'shapes/labels/train/train_1.txt', line: 2, code: 'label/class-id' }),
      expect.objectContaining({ image: 'shapes/images/val/val_0.png', code: 'image/truncated' }),
    ]);
  });

  it('reads deflated entries too: labels and image ends through DecompressionStream', async () => {
    const entries = await Promise.all(
      hubLayoutEntries().map(async (e) => {
        const data = typeof e.data === 'string' ? new TextEncoder().encode(e.data) : e.data;
        if (!data) return e;
        const changed =
          e.name === 'shapes/labels/train/train_2.txt'
            ? new TextEncoder().encode('0 0.5 0.5 0.2\n')
            : e.name === 'shapes/images/val/val_1.png'
              ? tinyPng({ cut: true })
              : data;
        return { ...e, data: changed, deflated: await deflateRaw(changed) };
      }),
    );
    const result = await checkArchive(zipFile(buildTestZip(entries)), 'detect');
    expect(result).toMatchObject({ status: 'ok', usable: 3, leftOutCount: 2 });
    if (result.status !== 'ok') return;
    expect(result.leftOut.map((l) => [l.image, l.code]).sort()).toEqual([
      ['shapes/images/train/train_2.png', 'label/value-count'],
      ['shapes/images/val/val_1.png', 'image/truncated'],
    ]);
  });

  it('blocks when no train image would be left', async () => {
    const entries = hubLayoutEntries().map((e) => (e.name.startsWith('shapes/labels/train/') ? { ...e, data: '0 0.5 0.5\n' } : e));
    expect(await checkArchive(zipFile(buildTestZip(entries)), 'detect')).toMatchObject({
      status: 'blocked',
      error: { code: 'dataset/nothing-usable' },
      leftOut: expect.arrayContaining([expect.objectContaining({ code: 'label/value-count' })]),
    });
  });

  it('blocks a wrong layout before any byte is sent: no yaml', async () => {
    const entries = hubLayoutEntries().filter((e) => !e.name.endsWith('data.yaml'));
    const result = await checkArchive(zipFile(buildTestZip(entries)), 'detect');
    expect(result).toMatchObject({ status: 'blocked', error: { code: 'dataset/no-yaml' } });
  });

  it('takes the task from a classification archive; blocks a detection archive for a classify dataset', async () => {
    const cls = buildTestZip([
      { name: 'train/cat/1.jpg', data: tinyPng() },
      { name: 'train/dog/2.jpg', data: tinyPng() },
      { name: 'val/cat/3.jpg', data: tinyPng() },
    ]);
    expect(await checkArchive(zipFile(cls), 'detect')).toMatchObject({ status: 'ok', task: 'classify', taskPicked: true, usable: 3 });
    expect(await checkArchive(zipFile(cls), 'classify')).toMatchObject({
      status: 'ok',
      task: 'classify',
      taskPicked: false,
      summary: { kind: 'classify', splits: { train: { images: 2 }, val: { images: 1 } } },
    });
    expect(await checkArchive(zipFile(buildTestZip(hubLayoutEntries())), 'classify')).toMatchObject({
      status: 'blocked',
      error: { code: 'dataset/task-mismatch' },
    });
  });

  it('blocks unsafe names, duplicates, encryption, and archives with no images', async () => {
    expect(await checkArchive(zipFile(buildTestZip([...hubLayoutEntries(), { name: '../evil.txt', data: 'x' }])), 'detect')).toMatchObject({
      status: 'blocked',
      error: { code: 'archive/unsafe-path', file: '../evil.txt' },
    });
    // Control characters (ADR 0013): blocked before upload, the name shown escaped as the server shows it.
    expect(
      await checkArchive(zipFile(buildTestZip([...hubLayoutEntries(), { name: 'shapes/images/train/bell\u0007.jpg', data: 'x' }])), 'detect'),
    ).toMatchObject({
      status: 'blocked',
      error: { code: 'archive/unsafe-path', file: 'shapes/images/train/bell\\x07.jpg', message: expect.stringContaining('control character') },
    });
    expect(await checkArchive(zipFile(buildTestZip([...hubLayoutEntries(), { name: 'shapes/data.yaml', data: 'x' }])), 'detect')).toMatchObject({
      error: { code: 'archive/duplicate-entry' },
    });
    expect(
      await checkArchive(zipFile(buildTestZip([...hubLayoutEntries(), { name: 'shapes/secret.jpg', data: 'x', encrypted: true }])), 'detect'),
    ).toMatchObject({ error: { code: 'archive/encrypted' } });
    expect(await checkArchive(zipFile(buildTestZip([{ name: 'readme.md', data: '# hi' }])), 'detect')).toMatchObject({ error: { code: 'dataset/no-images' } });
  });

  it('reports orphan labels from the names alone, without blocking a yolo upload', async () => {
    const result = await checkArchive(
      zipFile(buildTestZip([...hubLayoutEntries(), { name: 'shapes/labels/train/ghost.txt', data: '0 0.5 0.5 0.1 0.1' }])),
      'detect',
    );
    expect(result.status).toBe('ok');
    if (result.status === 'ok')
      expect(result.issues).toContainEqual(expect.objectContaining({ code: 'label/orphan', file: 'shapes/labels/train/ghost.txt', severity: 'warning' }));
  });

  it('says which files are not archives, leaves .tar to the server, and refuses damaged zips', async () => {
    expect(await checkArchive(zipFile(new Uint8Array([1, 2, 3]), 'photo.jpg'), 'detect')).toMatchObject({
      status: 'blocked',
      error: { code: 'NoArchiveProvided' },
    });
    expect(await checkArchive(zipFile(new Uint8Array(1024), 'dataset.tar'), 'detect')).toEqual({ status: 'skipped', format: 'tar', reason: 'tar' });
    expect(await checkArchive(zipFile(new TextEncoder().encode('not a zip, but named like one'), 'x.zip'), 'detect')).toMatchObject({
      status: 'blocked',
      error: { code: 'archive/not-a-zip' },
    });
  });
});
