import { randomBytes } from 'node:crypto';
import { open, readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openArchive, plainName, type ArchiveReader } from './archive.js';
import { normalizeEntryName } from './paths.js';
import { DatasetProcessingError } from './errors.js';
import { buildTar, buildZip, tempDir, type TempDir } from './test-archives.js';

let tmp: TempDir;
beforeEach(async () => {
  tmp = await tempDir();
});
afterEach(async () => {
  await tmp.cleanup();
});

async function rejection(promise: Promise<unknown>): Promise<DatasetProcessingError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(DatasetProcessingError);
    return err as DatasetProcessingError;
  }
  throw new Error('expected a rejection');
}

async function readRange(path: string, start: number, length: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    await handle.read(buf, 0, length, start);
    return buf;
  } finally {
    await handle.close();
  }
}

describe('openArchive: zip', () => {
  it('reads plain names without the general decoding and gives every name the normal form the general way gives it', async () => {
    const names = [
      'ds/',
      'ds/a.jpg',
      './ds/b.jpg',
      'ds//c.jpg',
      'ds/.../d.jpg',
      'ds/x:y.jpg',
      'ds\\e.jpg',
      'ds/./f.jpg',
      'ds/g..',
      'ds/.h',
      'ds/i.',
      'C.jpg',
      'ds/~ j.png',
    ];
    for (const name of names) {
      const raw = Buffer.from(name, 'latin1');
      const plain = plainName(raw, 0, raw.length, []);
      const general = normalizeEntryName(name);
      if (plain !== null) expect({ name: plain.replace(/\/$/, ''), ok: general.ok }).toEqual({ name: general.ok ? general.name : null, ok: true });
    }
    expect(['ds/a.jpg', 'ds/...x', 'a b/c.png', 'ds/'].map((n) => plainName(Buffer.from(n), 0, n.length, []))).toEqual([
      'ds/a.jpg',
      'ds/...x',
      'a b/c.png',
      'ds/',
    ]);
    expect(['./a', 'a//b', 'a\\b', 'C:x', '/a', 'a/..', 'a/.', 'é', 'a\x7f'].map((n) => plainName(Buffer.from(n), 0, Buffer.byteLength(n), []))).toEqual(
      Array(9).fill(null),
    );
    // A Unicode path field decides the name: the general way reads it.
    expect(plainName(Buffer.from('a.jpg'), 0, 5, [{ id: 0x7075, data: Buffer.alloc(8) }])).toBeNull();

    const archive = await openArchive(await tmp.write('names.zip', buildZip(names.map((name) => ({ name, data: name.endsWith('/') ? undefined : 'x' })))));
    try {
      expect(archive.entries.toArray().map((e) => e.name)).toEqual(names.map((n) => (normalizeEntryName(n) as { name: string }).name));
      expect(archive.entries.toArray().map((e) => e.isDirectory)).toEqual(names.map((n) => n.endsWith('/')));
    } finally {
      await archive.close();
    }
  });

  it('lists entries from the central directory and reads stored and deflated entries', async () => {
    const text = 'hello '.repeat(1000);
    const path = await tmp.write(
      'a.zip',
      buildZip([{ name: 'ds/' }, { name: 'ds/a.txt', data: text, method: 'deflate' }, { name: 'ds/b.bin', data: Buffer.from([1, 2, 3]) }]),
    );
    const archive = await openArchive(path);
    try {
      expect(archive.format).toBe('zip');
      expect(archive.entries.toArray().map((e) => [e.name, e.isDirectory])).toEqual([
        ['ds', true],
        ['ds/a.txt', false],
        ['ds/b.bin', false],
      ]);
      const a = 1;
      const { data, source } = await archive.readEntry(a, 1e6);
      expect(data.toString()).toBe(text);
      expect(source.compressionMethod).toBe(8);
      // The byte range is the raw deflate stream of the original: what a server can serve directly.
      const raw = await readRange(path, source.dataOffset, source.compressedSize);
      expect(zlib.inflateRawSync(raw).toString()).toBe(text);

      const b = await archive.readEntry(2, 1e6);
      expect([...b.data]).toEqual([1, 2, 3]);
      expect([...(await readRange(path, b.source.dataOffset, b.source.compressedSize))]).toEqual([1, 2, 3]);
    } finally {
      await archive.close();
    }
  });

  it('lists a central directory larger than one read, and names what is damaged in one (ADR 0042)', async () => {
    // ~1.6 MB of central directory: entries cross the 1 MB read chunk.
    const names = Array.from({ length: 15000 }, (_, i) => `images/train/${'n'.repeat(40)}_${String(i).padStart(5, '0')}.jpg`);
    const zip = buildZip(names.map((name, i) => ({ name, data: `x${i}` })));
    const archive = await openArchive(await tmp.write('many.zip', zip));
    try {
      expect(archive.entries.toArray().map((e) => e.name)).toEqual(names);
      const last = archive.entries.count - 1;
      expect((await archive.readEntry(last, 100)).data.toString()).toBe('x14999');
    } finally {
      await archive.close();
    }
    const centralDirectory = zip.readUInt32LE(zip.length - 22 + 16);
    const badSignature = Buffer.from(zip);
    badSignature.writeUInt32LE(0x12345678, centralDirectory);
    const err = await rejection(openArchive(await tmp.write('bad-signature.zip', badSignature)));
    expect(err.code).toBe('archive/corrupt');
    expect(err.message).toContain('invalid central directory file header signature: 0x12345678');
    const badSize = Buffer.from(zip);
    badSize.writeUInt32LE(99, centralDirectory + 20); // a stored entry's compressed size that is not its size
    const sizeErr = await rejection(openArchive(await tmp.write('bad-size.zip', badSize)));
    expect(sizeErr.code).toBe('archive/corrupt');
    expect(sizeErr.message).toContain('compressed/uncompressed size mismatch for stored file: 99 != 2');
  });

  it('refuses a file that is not a zip', async () => {
    const err = await rejection(openArchive(await tmp.write('x.zip', 'just some text, not an archive at all')));
    expect(err.code).toBe('archive/not-a-zip');
    expect((await rejection(openArchive(await tmp.write('empty.zip', '')))).code).toBe('archive/not-a-zip');
  });

  it('says a truncated zip is incomplete rather than not a zip', async () => {
    const zip = buildZip([{ name: 'a.txt', data: 'x'.repeat(100) }]);
    const err = await rejection(openArchive(await tmp.write('cut.zip', zip.subarray(0, 60))));
    expect(err.code).toBe('archive/corrupt');
    expect(err.message).toMatch(/incomplete/);
  });

  it('refuses compressed tarballs with a clear message', async () => {
    const err = await rejection(openArchive(await tmp.write('x.tar.gz', zlib.gzipSync(buildTar([{ name: 'a.txt', data: 'a' }])))));
    expect(err.code).toBe('archive/unsupported-format');
    expect(err.message).toMatch(/gzip/);
  });

  it.each([
    ['../evil.jpg'],
    ['ds/../../evil.jpg'],
    ['/etc/evil.jpg'],
    ['..\\..\\evil.jpg'],
    ['ds\\..\\..\\evil.jpg'],
    ['C:/Windows/evil.jpg'],
    ['C:\\evil.jpg'],
  ])('rejects the zip-slip path %s, naming it, and writes nothing', async (name) => {
    const path = await tmp.write(
      'slip.zip',
      buildZip([
        { name: 'ds/ok.txt', data: 'ok' },
        { name, data: 'pwned' },
      ]),
    );
    const before = await readdir(tmp.path);
    const parentBefore = await readdir(dirname(tmp.path));
    const err = await rejection(openArchive(path));
    expect(err.code).toBe('archive/unsafe-path');
    expect(err.file).toBe(name);
    expect(err.message).toContain(name);
    expect(await readdir(tmp.path)).toEqual(before);
    expect((await readdir(dirname(tmp.path))).sort()).toEqual(parentBefore.sort());
  });

  it('refuses an entry whose declared ratio is a bomb, naming it', async () => {
    const path = await tmp.write(
      'bomb.zip',
      buildZip([
        { name: 'a.txt', data: 'fine' },
        { name: 'images/train/big.jpg', data: Buffer.alloc(4 * 1024 * 1024), method: 'deflate' },
      ]),
    );
    const err = await rejection(openArchive(path));
    expect(err.code).toBe('archive/bomb');
    expect(err.file).toBe('images/train/big.jpg');
    expect(err.message).toMatch(/ratio/);
  });

  it('accepts a highly compressible small entry (ratio is only checked above 1 MB)', async () => {
    const path = await tmp.write('small.zip', buildZip([{ name: 'zeros.txt', data: Buffer.alloc(512 * 1024), method: 'deflate' }]));
    const archive = await openArchive(path);
    expect((await archive.readEntry(0, 1e6)).data.length).toBe(512 * 1024);
    await archive.close();
  });

  it('stops an entry that inflates beyond its declared size', async () => {
    const path = await tmp.write('liar.zip', buildZip([{ name: 'images/a.jpg', data: Buffer.alloc(3 * 1024 * 1024), method: 'deflate', declaredSize: 1000 }]));
    const archive = await openArchive(path);
    try {
      const err = await rejection(archive.readEntry(0, 1e9));
      expect(err.code).toBe('archive/bomb');
      expect(err.file).toBe('images/a.jpg');
    } finally {
      await archive.close();
    }
  });

  it('refuses by declared total size and by entry count', async () => {
    const zip = buildZip([
      { name: 'a.bin', data: Buffer.alloc(3000) },
      { name: 'b.bin', data: Buffer.alloc(3000) },
    ]);
    const path = await tmp.write('big.zip', zip);
    expect((await rejection(openArchive(path, { maxTotalUncompressedBytes: 5000 }))).code).toBe('archive/too-large');
    expect((await rejection(openArchive(path, { maxEntries: 1 }))).code).toBe('archive/too-large');
    const ok = await openArchive(path, { maxTotalUncompressedBytes: 6000, maxEntries: 2 });
    await ok.close();
  });

  it('refuses overlapping entries (a non-recursive zip bomb)', async () => {
    const path = await tmp.write(
      'overlap.zip',
      buildZip([{ name: 'kernel.bin', data: Buffer.alloc(1000), method: 'deflate' }], { aliases: [{ name: 'copy1.bin', of: 0 }] }),
    );
    expect((await rejection(openArchive(path))).code).toBe('archive/bomb');
  });

  it('refuses two entries with the same name', async () => {
    const path = await tmp.write(
      'dup.zip',
      buildZip([
        { name: 'a.txt', data: '1' },
        { name: 'a.txt', data: '2' },
      ]),
    );
    const err = await rejection(openArchive(path));
    expect(err.code).toBe('archive/duplicate-entry');
    expect(err.file).toBe('a.txt');
  });

  it('detects a CRC mismatch and refuses encrypted entries', async () => {
    const path = await tmp.write(
      'crc.zip',
      buildZip([
        { name: 'a.txt', data: 'hello', crc32: 1234 },
        { name: 'b.txt', data: 'x', method: 'deflate', encryptedFlag: true },
      ]),
    );
    const archive = await openArchive(path);
    try {
      expect((await rejection(archive.readEntry(0, 100))).code).toBe('archive/crc-mismatch');
      expect((await rejection(archive.readEntry(1, 100))).code).toBe('archive/encrypted');
    } finally {
      await archive.close();
    }
  });

  it('reads entries in archive order in one pass, each damaged entry yielded as its own error', async () => {
    const big = randomBytes(5 * 1024 * 1024); // larger than one read window
    const path = await tmp.write(
      'seq.zip',
      buildZip([
        { name: 'a.txt', data: 'hello '.repeat(500), method: 'deflate' },
        { name: 'bad.txt', data: 'hello', crc32: 1234 },
        { name: 'big.bin', data: big, method: 'deflate' },
        { name: 'enc.txt', data: 'x', method: 'deflate', encryptedFlag: true },
        { name: 'c.bin', data: Buffer.from([1, 2, 3]) },
      ]),
    );
    const archive = await openArchive(path);
    try {
      const got: Array<[string, string]> = [];
      for await (const read of archive.readInOrder(
        archive.entries
          .toArray()
          .map((e) => e.position)
          .reverse(),
        6 * 1024 * 1024,
      )) {
        if (read.error) got.push([read.entry.name, read.error.code]);
        else {
          expect(read.data.equals((await archive.readEntry(read.position, 1e8)).data)).toBe(true);
          expect(read.source).toEqual(await archive.locate(read.position));
          got.push([read.entry.name, 'ok']);
        }
      }
      expect(got).toEqual([
        ['a.txt', 'ok'],
        ['bad.txt', 'archive/crc-mismatch'],
        ['big.bin', 'ok'],
        ['enc.txt', 'archive/encrypted'],
        ['c.bin', 'ok'],
      ]);
      const small = [];
      for await (const read of archive.readInOrder(
        archive.entries.toArray().map((e) => e.position),
        1000,
      ))
        small.push(read.error?.code ?? 'ok');
      expect(small).toEqual(['archive/too-large', 'archive/crc-mismatch', 'archive/too-large', 'archive/encrypted', 'ok']);
    } finally {
      await archive.close();
    }
  });

  it('reuses a read buffer only once every read looking into it is released (ADR 0042)', async () => {
    // Stored entries larger than the 4 MB read window: each needs a window of its own.
    const fill = (byte: number) => Buffer.alloc(4.5 * 1024 * 1024, byte);
    const path = await tmp.write('windows.zip', buildZip([1, 2, 3, 4].map((b) => ({ name: `e${b}.bin`, data: fill(b), method: 'store' as const }))));
    const archive = await openArchive(path);
    try {
      // Nothing released: every read keeps its bytes to the end of the pass, whatever came after.
      const kept: Buffer[] = [];
      for await (const read of archive.readInOrder(
        archive.entries.toArray().map((e) => e.position),
        1e8,
      )) {
        if (read.error) throw read.error;
        kept.push(read.data);
      }
      expect(kept.map((d, i) => d.equals(fill(i + 1)))).toEqual([true, true, true, true]);
      expect(new Set(kept.map((d) => d.buffer)).size).toBe(4);
      // Released as soon as looked at: the later windows reuse the buffers the pass is done with.
      const buffers = new Set<ArrayBufferLike>();
      const ok: boolean[] = [];
      for await (const read of archive.readInOrder(
        archive.entries.toArray().map((e) => e.position),
        1e8,
      )) {
        if (read.error) throw read.error;
        ok.push(read.data.equals(fill(ok.length + 1)));
        buffers.add(read.data.buffer);
        read.release();
      }
      expect(ok).toEqual([true, true, true, true]);
      expect(buffers.size).toBeLessThan(4);
    } finally {
      await archive.close();
    }
  });

  it('refuses to read an entry above the per-file limit before reading it', async () => {
    const path = await tmp.write('a.zip', buildZip([{ name: 'a.bin', data: Buffer.alloc(2000) }]));
    const archive = await openArchive(path);
    expect((await rejection(archive.readEntry(0, 1000))).code).toBe('archive/too-large');
    await archive.close();
  });

  it('marks symlinks so they are never followed', async () => {
    const path = await tmp.write('link.zip', buildZip([{ name: 'link.jpg', data: '/etc/passwd', unixMode: 0o120777 }]));
    const archive: ArchiveReader = await openArchive(path);
    expect(archive.entries.entry(0).isLink).toBe(true);
    await archive.close();
  });
});

describe('openArchive: tar', () => {
  it('lists and reads an uncompressed tar, long names included', async () => {
    const long = `ds/${'x'.repeat(120)}/a.txt`;
    const path = await tmp.write(
      'a.tar',
      buildTar([
        { name: 'ds/', type: '5' },
        { name: 'ds/a.txt', data: 'alpha' },
        { name: long, data: 'beta' },
      ]),
    );
    const archive = await openArchive(path);
    expect(archive.format).toBe('tar');
    expect(archive.entries.toArray().map((e) => e.name)).toEqual(['ds', 'ds/a.txt', long]);
    const { data, source } = await archive.readEntry(2, 100);
    expect(data.toString()).toBe('beta');
    expect((await readRange(path, source.dataOffset, source.compressedSize)).toString()).toBe('beta');
    const inOrder = [];
    for await (const read of archive.readInOrder([2, 1], 100)) inOrder.push(read.error ? read.error.code : read.data.toString());
    expect(inOrder).toEqual(['alpha', 'beta']);
    await archive.close();
  });

  it('rejects zip-slip paths in a tar too', async () => {
    const err = await rejection(openArchive(await tmp.write('slip.tar', buildTar([{ name: '../evil.txt', data: 'x' }]))));
    expect(err.code).toBe('archive/unsafe-path');
    expect(err.file).toBe('../evil.txt');
  });

  it('says a cut tar is incomplete', async () => {
    const tar = buildTar([{ name: 'a.txt', data: 'y'.repeat(2000) }]);
    expect((await rejection(openArchive(await tmp.write('cut.tar', tar.subarray(0, 1024))))).code).toBe('archive/corrupt');
  });
});
