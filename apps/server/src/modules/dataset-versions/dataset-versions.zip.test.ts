import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { versionZip, type ZipImage } from './dataset-versions.zip.js';

const img = (imageId: string, split: string, name: string, labels: number[][] = [[0, 0.5, 0.5, 0.25, 0.25]]): ZipImage => ({
  id: `r_${imageId}`,
  imageId,
  name,
  split,
  className: null,
  labels,
  bytes: Buffer.byteLength(`bytes of ${imageId}`),
});
const open = async (i: ZipImage) => Readable.from([Buffer.from(`bytes of ${i.imageId}`)]);

async function build(images: ZipImage[], classes = ['cat', 'dog']) {
  const { stream, size } = versionZip('shapes', 'detect', classes, images, open);
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return { bytes: Buffer.concat(chunks), size: await size };
}

function entries(buf: Buffer): Promise<Array<{ name: string; method: number }>> {
  return new Promise((resolve, reject) =>
    yauzl.fromBuffer(buf, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const out: Array<{ name: string; method: number }> = [];
      zip.on('entry', (e: yauzl.Entry) => {
        out.push({ name: e.fileName, method: e.compressionMethod });
        zip.readEntry();
      });
      zip.on('end', () => resolve(out));
      zip.readEntry();
    }),
  );
}

describe('version zip (ADR 0038)', () => {
  it('identical content gives identical bytes whatever the order rows come in, and the announced size is the length', async () => {
    const rows = [img('a', 'train', 'a.jpg'), img('b', 'val', 'b.jpg'), img('c', 'train', 'c.png')];
    const one = await build(rows);
    const two = await build([...rows].reverse());
    expect(one.bytes.equals(two.bytes)).toBe(true);
    expect(one.size).toBe(one.bytes.length);
    const list = await entries(one.bytes);
    expect(list.map((e) => e.name)).toEqual([
      'shapes/data.yaml',
      'shapes/images/train/a.jpg',
      'shapes/images/train/c.png',
      'shapes/images/val/b.jpg',
      'shapes/labels/train/a.txt',
      'shapes/labels/train/c.txt',
      'shapes/labels/val/b.txt',
    ]);
    expect(list.every((e) => e.method === 0)).toBe(true);
  });

  it('a label or a class name changes the bytes; two images with one name in a split are both kept', async () => {
    const base = await build([img('a', 'train', 'a.jpg')]);
    expect((await build([img('a', 'train', 'a.jpg', [[1, 0.5, 0.5, 0.25, 0.25]])])).bytes.equals(base.bytes)).toBe(false);
    expect((await build([img('a', 'train', 'a.jpg')], ['cat', 'hound'])).bytes.equals(base.bytes)).toBe(false);
    const names = (await entries((await build([img('a', 'train', 'x.jpg'), img('b', 'train', 'x.jpg')])).bytes)).map((e) => e.name);
    expect(names).toContain('shapes/images/train/x.jpg');
    expect(names).toContain('shapes/images/train/b_x.jpg');
  });
});
