/**
 * Builds small zip archives for tests (stored entries, real CRC-32), with the variants the browser
 * listing must understand: a trailing comment, the UTF-8 flag, zip64 end records, encryption flags.
 */
export interface TestZipEntry {
  name: string;
  data?: string | Uint8Array;
  encrypted?: boolean;
  /** The entry's bytes as deflate (method 8) wrote them; `data` stays the uncompressed content. */
  deflated?: Uint8Array;
}

/** Raw deflate through the platform's CompressionStream, as zip tools write method 8. */
export async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const input = new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(data), c.close()) });
  const reader = input.pipeThrough(new CompressionStream('deflate-raw') as unknown as ReadableWritablePair<Uint8Array, Uint8Array>).getReader();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
  }
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

class Writer {
  private readonly chunks: Uint8Array[] = [];
  length = 0;
  bytes(b: Uint8Array) {
    this.chunks.push(b);
    this.length += b.length;
  }
  u16(v: number) {
    const b = new Uint8Array(2);
    new DataView(b.buffer).setUint16(0, v, true);
    this.bytes(b);
  }
  u32(v: number) {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v >>> 0, true);
    this.bytes(b);
  }
  u64(v: number) {
    this.u32(v % 2 ** 32);
    this.u32(Math.floor(v / 2 ** 32));
  }
  concat(): Uint8Array {
    const out = new Uint8Array(this.length);
    let at = 0;
    for (const c of this.chunks) {
      out.set(c, at);
      at += c.length;
    }
    return out;
  }
}

export function buildTestZip(entries: TestZipEntry[], options: { comment?: string; zip64?: boolean; utf8?: boolean } = {}): Uint8Array {
  const enc = new TextEncoder();
  const out = new Writer();
  const central = new Writer();
  const flagsBase = options.utf8 === false ? 0 : 0x800;
  for (const entry of entries) {
    const name = enc.encode(entry.name);
    const data = typeof entry.data === 'string' ? enc.encode(entry.data) : (entry.data ?? new Uint8Array());
    const crc = crc32(data);
    const flags = flagsBase | (entry.encrypted ? 1 : 0);
    const offset = out.length;
    const stored = entry.deflated ?? data;
    const method = entry.deflated ? 8 : 0;
    out.u32(0x04034b50);
    out.u16(20);
    out.u16(flags);
    out.u16(method);
    out.u16(0);
    out.u16(0);
    out.u32(crc);
    out.u32(stored.length);
    out.u32(data.length);
    out.u16(name.length);
    out.u16(0);
    out.bytes(name);
    out.bytes(stored);

    central.u32(0x02014b50);
    central.u16(0x031e);
    central.u16(20);
    central.u16(flags);
    central.u16(method);
    central.u16(0);
    central.u16(0);
    central.u32(crc);
    if (options.zip64) {
      // Saturated 32-bit fields, real values in the zip64 extra field.
      central.u32(0xffffffff);
      central.u32(0xffffffff);
    } else {
      central.u32(stored.length);
      central.u32(data.length);
    }
    central.u16(name.length);
    central.u16(options.zip64 ? 4 + 24 : 0);
    central.u16(0);
    central.u16(0);
    central.u16(0);
    central.u32(0);
    central.u32(options.zip64 ? 0xffffffff : offset);
    central.bytes(name);
    if (options.zip64) {
      central.u16(0x0001);
      central.u16(24);
      central.u64(data.length);
      central.u64(data.length);
      central.u64(offset);
    }
  }
  const cdOffset = out.length;
  const cd = central.concat();
  out.bytes(cd);
  if (options.zip64) {
    const zip64At = out.length;
    out.u32(0x06064b50);
    out.u64(44);
    out.u16(45);
    out.u16(45);
    out.u32(0);
    out.u32(0);
    out.u64(entries.length);
    out.u64(entries.length);
    out.u64(cd.length);
    out.u64(cdOffset);
    out.u32(0x07064b50);
    out.u32(0);
    out.u64(zip64At);
    out.u32(1);
  }
  const comment = enc.encode(options.comment ?? '');
  out.u32(0x06054b50);
  out.u16(0);
  out.u16(0);
  out.u16(options.zip64 ? 0xffff : entries.length);
  out.u16(options.zip64 ? 0xffff : entries.length);
  out.u32(options.zip64 ? 0xffffffff : cd.length);
  out.u32(options.zip64 ? 0xffffffff : cdOffset);
  out.u16(comment.length);
  out.bytes(comment);
  return out.concat();
}

/** A File of these bytes (named, so the archive check knows its format). */
export const zipFile = (bytes: Uint8Array, name = 'dataset.zip') => new File([bytes as BlobPart], name, { type: 'application/zip' });

/**
 * A PNG the byte-level image rule accepts (signature, 16×16 IHDR, IEND); `cut` drops its IEND, as a
 * truncated upload would.
 */
export function tinyPng(options: { width?: number; height?: number; cut?: boolean } = {}): Uint8Array {
  const be32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  const chars = (t: string) => [...t].map((c) => c.charCodeAt(0));
  return new Uint8Array([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...be32(13),
    ...chars('IHDR'),
    ...be32(options.width ?? 16),
    ...be32(options.height ?? 16),
    8,
    2,
    0,
    0,
    0,
    1,
    2,
    3,
    4,
    ...be32(4),
    ...chars('IDAT'),
    1,
    2,
    3,
    4,
    5,
    6,
    7,
    8,
    ...(options.cut ? [] : [...be32(0), ...chars('IEND'), 0xae, 0x42, 0x60, 0x82]),
  ]);
}

/** The HUB layout of shapes3.zip in miniature: name/data.yaml with images/ and labels/ per split. */
export function hubLayoutEntries(root = 'shapes'): TestZipEntry[] {
  const entries: TestZipEntry[] = [{ name: `${root}/` }, { name: `${root}/data.yaml`, data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' }];
  for (const [split, n] of [
    ['train', 3],
    ['val', 2],
  ] as const) {
    for (let i = 0; i < n; i++) {
      entries.push({ name: `${root}/images/${split}/${split}_${i}.png`, data: tinyPng() });
      entries.push({ name: `${root}/labels/${split}/${split}_${i}.txt`, data: '0 0.5 0.5 0.2 0.2\n' });
    }
  }
  return entries;
}
