/**
 * Test helpers: a tiny zip and tar writer that can also write the hostile archives no proper tool
 * would (names with `..`, lying sizes, overlapping entries), and real images made with sharp.
 * Only tests import this file.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import zlib from 'node:zlib';
import sharp from 'sharp';

export interface ZipEntrySpec {
  /** Written verbatim, unsafe names included. A name ending in `/` is a directory. */
  name: string;
  data?: Buffer | string;
  method?: 'store' | 'deflate';
  /** Lie about the uncompressed size (central and local headers). */
  declaredSize?: number;
  /** Lie about the CRC-32. */
  crc32?: number;
  /** Unix mode for the external attributes, e.g. `0o120777` for a symlink. */
  unixMode?: number;
  /** Sets the "encrypted" flag (the data is not really encrypted). */
  encryptedFlag?: boolean;
}

export interface ZipOptions {
  /** Extra central-directory records that point at the local header of entry `of`: an overlap bomb. */
  aliases?: Array<{ name: string; of: number }>;
}

export function buildZip(entries: readonly ZipEntrySpec[], options: ZipOptions = {}): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  const records: Array<{
    name: Buffer;
    method: number;
    crc: number;
    csize: number;
    usize: number;
    flags: number;
    offset: number;
    madeBy: number;
    external: number;
  }> = [];
  for (const spec of entries) {
    const name = Buffer.from(spec.name, 'utf8');
    const raw = spec.data === undefined ? Buffer.alloc(0) : Buffer.isBuffer(spec.data) ? spec.data : Buffer.from(spec.data, 'utf8');
    const method = spec.method === 'deflate' ? 8 : 0;
    const body = method === 8 ? zlib.deflateRawSync(raw) : raw;
    const crc = spec.crc32 ?? zlib.crc32(raw);
    const usize = spec.declaredSize ?? raw.length;
    const flags = 0x0800 | (spec.encryptedFlag ? 1 : 0);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x5b21, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(usize, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    records.push({
      name,
      method,
      crc,
      csize: body.length,
      usize,
      flags,
      offset,
      madeBy: spec.unixMode !== undefined ? (3 << 8) | 20 : 20,
      external: spec.unixMode !== undefined ? (spec.unixMode << 16) >>> 0 : 0,
    });
    parts.push(local, name, body);
    offset += local.length + name.length + body.length;
  }
  for (const alias of options.aliases ?? []) records.push({ ...records[alias.of], name: Buffer.from(alias.name, 'utf8') });
  for (const r of records) {
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(r.madeBy, 4);
    header.writeUInt16LE(20, 6);
    header.writeUInt16LE(r.flags, 8);
    header.writeUInt16LE(r.method, 10);
    header.writeUInt16LE(0, 12);
    header.writeUInt16LE(0x5b21, 14);
    header.writeUInt32LE(r.crc >>> 0, 16);
    header.writeUInt32LE(r.csize, 20);
    header.writeUInt32LE(r.usize, 24);
    header.writeUInt16LE(r.name.length, 28);
    header.writeUInt32LE(r.external, 38);
    header.writeUInt32LE(r.offset, 42);
    central.push(header, r.name);
  }
  const cd = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(records.length, 8);
  end.writeUInt16LE(records.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, cd, end]);
}

export interface TarEntrySpec {
  name: string;
  data?: Buffer | string;
  /** '0' file (default), '5' directory, '2' symlink, 'S' GNU sparse file (data stored as given). */
  type?: '0' | '5' | '2' | 'S';
}

/** ustar, with a pax header for names over 100 bytes. */
export function buildTar(entries: readonly TarEntrySpec[]): Buffer {
  const blocks: Buffer[] = [];
  const pad = (buf: Buffer) => (buf.length % 512 === 0 ? buf : Buffer.concat([buf, Buffer.alloc(512 - (buf.length % 512))]));
  const header = (name: string, size: number, type: string) => {
    const h = Buffer.alloc(512);
    h.write(name.slice(0, 100), 0, 'utf8');
    h.write('0000644\0', 100, 'latin1');
    h.write('0000000\0', 108, 'latin1');
    h.write('0000000\0', 116, 'latin1');
    h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 'latin1');
    h.write('00000000000\0', 136, 'latin1');
    h.write('        ', 148, 'latin1');
    h.write(type, 156, 'latin1');
    h.write('ustar\0', 257, 'latin1');
    h.write('00', 263, 'latin1');
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    return h;
  };
  for (const spec of entries) {
    const data = spec.data === undefined ? Buffer.alloc(0) : Buffer.isBuffer(spec.data) ? spec.data : Buffer.from(spec.data, 'utf8');
    if (Buffer.byteLength(spec.name) > 100) {
      const body = (len: number) => ` path=${spec.name}\n`.length + String(len).length;
      let len = body(0);
      while (body(len) !== len) len = body(len);
      const record = Buffer.from(`${len} path=${spec.name}\n`, 'utf8');
      blocks.push(header('PaxHeader', record.length, 'x'), pad(record));
    }
    const type = spec.type ?? '0';
    const hasData = type === '0' || type === 'S';
    blocks.push(header(spec.name, hasData ? data.length : 0, type));
    if (hasData && data.length > 0) blocks.push(pad(data));
  }
  blocks.push(Buffer.alloc(1024));
  return Buffer.concat(blocks);
}

const imageCache = new Map<string, Buffer>();

/** A real, small image with a colour gradient so encoders do not collapse it. */
export async function makeImage(format: 'png' | 'jpeg' = 'png', width = 32, height = 24, hue = 0): Promise<Buffer> {
  const key = `${format}:${width}x${height}:${hue}`;
  const cached = imageCache.get(key);
  if (cached) return cached;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      pixels[i] = (x * 8 + hue) & 255;
      pixels[i + 1] = (y * 8) & 255;
      pixels[i + 2] = (hue * 3) & 255;
    }
  }
  const img = sharp(pixels, { raw: { width, height, channels: 3 } });
  const out = format === 'png' ? await img.png().toBuffer() : await img.jpeg({ quality: 80 }).toBuffer();
  imageCache.set(key, out);
  return out;
}

export interface TempDir {
  path: string;
  file(name: string): string;
  write(name: string, data: Buffer | string): Promise<string>;
  cleanup(): Promise<void>;
}

export async function tempDir(): Promise<TempDir> {
  // The work folder sits in a private parent, so tests can check that nothing escaped next to it
  // while other test files write to the shared temp folder.
  const parent = await mkdtemp(join(tmpdir(), 'sightline-ds-'));
  const path = join(parent, 'work');
  await mkdir(path);
  return {
    path,
    file: (name) => join(path, name),
    write: async (name, data) => {
      const file = join(path, name);
      await writeFile(file, data);
      return file;
    },
    cleanup: () => rm(parent, { recursive: true, force: true }),
  };
}

export interface YoloImageSpec {
  split: 'train' | 'val' | 'valid' | 'test';
  name: string;
  /** Label file text; undefined writes no label file. */
  label?: string;
  image?: Buffer;
}

/**
 * A detection-style dataset as zip entries. `style` picks the folder layout: `yolo`
 * (`images/<split>`, `labels/<split>`) or `roboflow` (`<split>/images`, `<split>/labels`); `prefix`
 * wraps everything in folders; `yaml` is written as `yamlName` at the prefix unless null.
 */
export async function yoloEntries(options: {
  prefix?: string;
  style?: 'yolo' | 'roboflow';
  yaml?: string | null;
  yamlName?: string;
  images: readonly YoloImageSpec[];
  method?: 'store' | 'deflate';
}): Promise<ZipEntrySpec[]> {
  const prefix = options.prefix ? `${options.prefix.replace(/\/$/, '')}/` : '';
  const style = options.style ?? 'yolo';
  const entries: ZipEntrySpec[] = [];
  if (options.yaml !== null) {
    entries.push({ name: `${prefix}${options.yamlName ?? 'data.yaml'}`, data: options.yaml ?? 'train: images/train\nval: images/val\nnames: [red, green]\n' });
  }
  for (const spec of options.images) {
    const dir = (kind: 'images' | 'labels') => (style === 'yolo' ? `${prefix}${kind}/${spec.split}` : `${prefix}${spec.split}/${kind}`);
    const stem = spec.name.replace(/\.[^.]+$/, '');
    entries.push({
      name: `${dir('images')}/${spec.name}`,
      data: spec.image ?? (await makeImage(spec.name.endsWith('.png') ? 'png' : 'jpeg')),
      method: options.method,
    });
    if (spec.label !== undefined) entries.push({ name: `${dir('labels')}/${stem}.txt`, data: spec.label, method: options.method });
  }
  return entries;
}
