import { describe, expect, it } from 'vitest';
import { checkPairs, collectPairs } from './datasets.added-files.js';
import { buildZip, makeImage } from './processing/test-archives.js';

describe('added files read from the request (ADR 0038)', () => {
  it('reads stored and deflated entries, pairs them by stem, ignores folders and other files', async () => {
    const a = await makeImage('png', 20, 10, 1);
    const b = await makeImage('jpeg', 30, 20, 2);
    const zip = buildZip([
      { name: 'x/a.png', data: a },
      { name: 'x/a.txt', data: '1 0.5 0.5 0.2 0.2\n', method: 'deflate' },
      { name: 'deep/b.jpg', data: b, method: 'deflate' },
      { name: 'notes.md', data: 'hello' },
      { name: 'orphan.txt', data: '0 0.5 0.5 0.1 0.1\n' },
    ]);
    const pairs = await collectPairs([{ filename: 'add.zip', data: zip }]);
    expect([...pairs.keys()].sort()).toEqual(['a', 'b']);
    expect(pairs.get('a')!.image!.data.equals(a)).toBe(true);
    expect(pairs.get('a')!.label!.toString()).toBe('1 0.5 0.5 0.2 0.2\n');
    expect(pairs.get('b')!.image!.data.equals(b)).toBe(true);
  });

  it('refuses a zip whose bytes do not match their CRC-32, and bytes that are no zip', async () => {
    const a = await makeImage('png', 20, 10, 1);
    const bad = buildZip([{ name: 'a.png', data: a, crc32: 1234 }]);
    await expect(collectPairs([{ filename: 'add.zip', data: bad }])).rejects.toThrow(/not a zip this server can read.*CRC-32/);
    await expect(collectPairs([{ filename: 'add.zip', data: Buffer.from('not a zip') }])).rejects.toThrow(/not a zip this server can read/);
  });

  it('checks pairs with the upload rules: sizes from headers, labels parsed, bad pairs left out with the upload names', async () => {
    const a = await makeImage('png', 40, 30, 1);
    const pairs = new Map([
      ['a', { image: { name: 'a.png', data: a }, label: Buffer.from('1 0.5 0.5 0.2 0.2\n') }],
      ['c', { image: { name: 'c.png', data: a }, label: Buffer.from('7 0.5 0.5 0.2 0.2\n') }],
      ['d', { image: { name: 'd.png', data: Buffer.from('not a png') } }],
    ]);
    const { images, report } = await checkPairs('detect', ['red', 'green'], null, pairs);
    expect(images.map((i) => [i.name, i.width, i.height, i.format, i.labels])).toEqual([['a.png', 40, 30, 'png', [[1, 0.5, 0.5, 0.2, 0.2]]]]);
    expect(report.leftOutCount).toBe(2);
    expect((report.leftOut ?? []).map((l) => l.image).sort()).toEqual(['images/train/c.png', 'images/train/d.png']);
  });
});
