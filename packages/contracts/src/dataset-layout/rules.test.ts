import { describe, expect, it } from 'vitest';
import { IMAGE_HEAD_MAX, IMAGE_TAIL_MAX, inspectImageBytes, sampleOf, type ImageSample, type ImageVerdict } from './image-bytes.js';
import { taskFromLayout } from './layout.js';
import { decodeLabelText, verifyImageLabel } from './pair.js';
import { precheckArchive, type PrecheckSource } from './precheck.js';

// The dataset rules of ADR 0029, on bytes built here. The server runs the same functions in processing;
// apps/server/src/modules/datasets/processing/dataset-rules.test.ts compares both with the real client.

const bytes = (...parts: (number[] | Uint8Array | string)[]) => {
  const out: number[] = [];
  for (const p of parts) {
    if (typeof p === 'string') for (const c of p) out.push(c.charCodeAt(0));
    else out.push(...p);
  }
  return new Uint8Array(out);
};
const be16 = (n: number) => [n >> 8, n & 0xff];
const be32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
const le16 = (n: number) => [n & 0xff, n >> 8];
const le32 = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

function jpeg(width: number, height: number, options: { orientation?: number; end?: number[]; appPadding?: number; bits?: number } = {}): Uint8Array {
  const app1 =
    options.orientation !== undefined
      ? (() => {
          const tiff = [...'II']
            .map((c) => c.charCodeAt(0))
            .concat([0x2a, 0], le32(8), le16(1), le16(0x0112), le16(3), le32(1), le16(options.orientation), [0, 0], le32(0));
          const body = [...bytes('Exif\0\0'), ...tiff];
          return [0xff, 0xe1, ...be16(body.length + 2), ...body];
        })()
      : [];
  const pad = options.appPadding ? [0xff, 0xe2, ...be16(options.appPadding + 2), ...new Array(options.appPadding).fill(7)] : [];
  const sof = [0xff, 0xc0, ...be16(17), options.bits ?? 8, ...be16(height), ...be16(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  const sos = [0xff, 0xda, ...be16(12), 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0];
  const scan = new Array(200).fill(0).map((_, i) => (i * 37) & 0x7f);
  return bytes([0xff, 0xd8], [0xff, 0xe0, ...be16(16)], 'JFIF\0', [1, 1, 0, 0, 1, 0, 1, 0, 0], app1, pad, sof, sos, scan, options.end ?? [0xff, 0xd9]);
}

function png(width: number, height: number, end = true): Uint8Array {
  const ihdr = bytes(be32(13), 'IHDR', be32(width), be32(height), [8, 2, 0, 0, 0], [1, 2, 3, 4]);
  const idat = bytes(be32(10), 'IDAT', new Array(10).fill(1), [5, 6, 7, 8]);
  return bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], ihdr, idat, end ? bytes(be32(0), 'IEND', [0xae, 0x42, 0x60, 0x82]) : []);
}

const full = (data: Uint8Array, name = 'a.jpg') => inspectImageBytes(sampleOf(data), name, name.split('.').pop()) as ImageVerdict;

/** What the browser does: start small, read more only when asked. */
function progressive(data: Uint8Array, name = 'a.jpg'): ImageVerdict {
  let head = 64;
  let tail = 4;
  for (;;) {
    const sample: ImageSample = {
      size: data.length,
      head: data.subarray(0, Math.min(head, data.length)),
      tail: data.subarray(Math.max(0, data.length - tail)),
    };
    const v = inspectImageBytes(sample, name, name.split('.').pop());
    if (!v.needMore) return v;
    expect(v.needMore.head).toBeLessThanOrEqual(IMAGE_HEAD_MAX);
    expect(v.needMore.tail).toBeLessThanOrEqual(IMAGE_TAIL_MAX);
    expect(v.needMore.head > head || v.needMore.tail > tail).toBe(true);
    head = v.needMore.head;
    tail = v.needMore.tail;
  }
}

describe('inspectImageBytes: the byte-level image rule', () => {
  it('reads JPEG sizes from the SOF marker, EXIF rotation 6/8 swapping them as exif_size does', () => {
    expect(full(jpeg(64, 48))).toMatchObject({ ok: true, format: 'jpeg', width: 64, height: 48, restored: false, issues: [] });
    expect(full(jpeg(64, 48, { orientation: 6 }))).toMatchObject({ ok: true, width: 48, height: 64 });
    expect(full(jpeg(64, 48, { orientation: 3 }))).toMatchObject({ ok: true, width: 64, height: 48 });
  });

  it('a JPEG with bytes after its end marker is restored (warning); one with no end marker is dropped', () => {
    const trailing = full(jpeg(64, 48, { end: [0xff, 0xd9, 0, 0, 0, 0] }));
    expect(trailing).toMatchObject({ ok: true, restored: true, issues: [expect.objectContaining({ severity: 'warning', code: 'image/truncated' })] });
    expect(full(jpeg(64, 48, { end: [] }))).toMatchObject({ ok: false, issues: [expect.objectContaining({ severity: 'error', code: 'image/truncated' })] });
  });

  it('drops what Pillow cannot open or ultralytics refuses: damaged header, 12-bit, tiny, GIF, not an image', () => {
    const damaged = jpeg(64, 48);
    damaged.set([0xff, 0x12], 20); // after the JFIF segment: 0xFF then no marker ("no marker found")
    expect(full(damaged)).toMatchObject({ ok: false, issues: [expect.objectContaining({ code: 'image/corrupt' })] });
    expect(full(jpeg(64, 48, { bits: 12 }))).toMatchObject({ ok: false });
    expect(full(jpeg(9, 48))).toMatchObject({ ok: false, width: 9, issues: [expect.objectContaining({ code: 'image/too-small' })] });
    expect(full(bytes('GIF89a', new Array(40).fill(0)), 'a.gif')).toMatchObject({
      ok: false,
      format: 'gif',
      issues: [expect.objectContaining({ code: 'image/unsupported-format' })],
    });
    expect(full(bytes('this is not a jpeg at all, just text pretending'))).toMatchObject({
      ok: false,
      issues: [expect.objectContaining({ code: 'image/corrupt' })],
    });
    expect(full(jpeg(64, 48).subarray(0, 40))).toMatchObject({ ok: false, issues: [expect.objectContaining({ code: 'image/corrupt' })] });
  });

  it('PNG: size from IHDR, IEND required at the end', () => {
    expect(full(png(32, 24), 'a.png')).toMatchObject({ ok: true, format: 'png', width: 32, height: 24 });
    expect(full(png(32, 24, false), 'a.png')).toMatchObject({ ok: false, issues: [expect.objectContaining({ code: 'image/truncated' })] });
    expect(full(bytes(png(32, 24), 'trailing bytes'), 'a.png')).toMatchObject({ ok: true });
  });

  it('BMP, WebP (VP8X) and TIFF sizes', () => {
    const bmp = bytes('BM', le32(70), [0, 0, 0, 0], le32(54), le32(40), le32(20), le32(-30), new Array(40).fill(0));
    expect(full(bmp, 'a.bmp')).toMatchObject({ ok: true, format: 'bmp', width: 20, height: 30 });
    const webp = bytes('RIFF', le32(30), 'WEBP', 'VP8X', le32(10), [0, 0, 0, 0], [99, 0, 0], [49, 0, 0], new Array(10).fill(0));
    expect(full(webp, 'a.webp')).toMatchObject({ ok: true, format: 'webp', width: 100, height: 50 });
    const tiff = bytes(
      'II',
      [42, 0],
      le32(8),
      le16(2),
      le16(256),
      le16(3),
      le32(1),
      le16(40),
      [0, 0],
      le16(257),
      le16(4),
      le32(1),
      le32(30),
      le32(0),
      new Array(20).fill(0),
    );
    expect(full(tiff, 'a.tif')).toMatchObject({ ok: true, format: 'tiff', width: 40, height: 30 });
  });

  it('costs are bounded, and reading progressively reaches the verdict of the whole file', () => {
    const cases: [Uint8Array, string][] = [
      [jpeg(64, 48), 'a.jpg'],
      [jpeg(64, 48, { orientation: 8, appPadding: 40_000 }), 'a.jpg'],
      [jpeg(64, 48, { end: [0xff, 0xd9, ...new Array(3000).fill(0)] }), 'a.jpg'],
      [jpeg(64, 48, { end: [] }), 'a.jpg'],
      [png(32, 24), 'a.png'],
      [png(32, 24, false), 'a.png'],
    ];
    for (const [data, name] of cases) expect(progressive(data, name)).toEqual(full(data, name));
    // A header beyond the window: kept unmeasured, never read past IMAGE_HEAD_MAX.
    const huge = jpeg(64, 48, { appPadding: 60_000 });
    const padded = bytes(
      huge.subarray(0, 20),
      ...Array.from({ length: 6 }, () => [0xff, 0xe2, ...be16(60_002), ...new Array(60_000).fill(1)]),
      huge.subarray(20),
    );
    expect(full(padded)).toMatchObject({ ok: true, width: null, issues: [expect.objectContaining({ code: 'image/unverified' })] });
  });
});

describe('verifyImageLabel: the image + label pair', () => {
  const schema = { task: 'detect' as const, nc: 2 };
  const good = full(jpeg(64, 48));
  const pair = (text: string | null) =>
    verifyImageLabel({ image: 'images/train/a.jpg', verdict: good, label: text === null ? null : { file: 'labels/train/a.txt', text }, schema });

  it('keeps good pairs and background images', () => {
    expect(pair('0 0.5 0.5 0.2 0.2\n1 0.1 0.1 0.1 0.1\n')).toMatchObject({
      keep: true,
      rows: [
        [0, 0.5, 0.5, 0.2, 0.2],
        [1, 0.1, 0.1, 0.1, 0.1],
      ],
      leftOut: null,
    });
    expect(pair(null)).toMatchObject({ keep: true, rows: [] });
    expect(pair('')).toMatchObject({ keep: true, rows: [] });
  });

  it('one bad line leaves the whole pair out, with the first reason and its line', () => {
    expect(pair('0 0.5 0.5 0.2 0.2\n5 0.5 0.5 0.2 0.2\n')).toMatchObject({
      keep: false,
      leftOut: { image: 'images/train/a.jpg', file: 'labels/train/a.txt', line: 2, code: 'label/class-id' },
    });
    expect(pair('1 1.5 0.5 0.2 0.2\n').leftOut).toMatchObject({ code: 'label/out-of-range', line: 1 });
    expect(pair('0 0.5 0.5\n').leftOut).toMatchObject({ code: 'label/value-count' });
    expect(pair('0 -0.5 0.5 0.2 0.2\n0 0.5 0.5\n').leftOut).toMatchObject({ code: 'label/out-of-range', message: expect.stringContaining('1 more problem') });
  });

  it('duplicate rows are removed and flagged', () => {
    const result = pair('0 0.5 0.5 0.2 0.2\n0 0.5 0.5 0.2 0.2\n');
    expect(result).toMatchObject({
      keep: true,
      rows: [[0, 0.5, 0.5, 0.2, 0.2]],
      warnings: [expect.objectContaining({ code: 'label/duplicate-row', severity: 'warning' })],
    });
  });

  it('an image the rule drops leaves the pair out whatever its label', () => {
    const tiny = full(jpeg(8, 8), 'x.jpg');
    expect(verifyImageLabel({ image: 'x.jpg', verdict: tiny, label: null, schema })).toMatchObject({
      keep: false,
      leftOut: { image: 'x.jpg', file: 'x.jpg', code: 'image/too-small' },
    });
  });

  it('label text: UTF-8 and UTF-16 with a byte-order mark; anything else is not text', () => {
    expect(decodeLabelText(bytes('0 0.5 0.5 0.1 0.1'))).toBe('0 0.5 0.5 0.1 0.1');
    expect(decodeLabelText(bytes([0xff, 0xfe], [0x30, 0]))).toBe('0');
    expect(decodeLabelText(bytes([0xc3, 0x28]))).toBeNull();
  });
});

describe('precheckArchive and the task from the archive', () => {
  const source = (files: Record<string, Uint8Array | string>): PrecheckSource => {
    const data = new Map(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? bytes(v) : v]));
    return {
      entries: [...data].map(([name, d]) => ({ name, isDirectory: false, size: d.length })),
      readWhole: async (name) => data.get(name) ?? null,
      readSample: async (name, head, tail) => {
        const d = data.get(name);
        return d ? { size: d.length, head: d.subarray(0, head), tail: d.subarray(d.length - tail) } : null;
      },
    };
  };

  it('a classification zip is checked as classify whatever task was asked', async () => {
    const files = {
      'pets/train/cat/1.jpg': jpeg(32, 32),
      'pets/train/dog/2.jpg': jpeg(32, 32),
      'pets/val/cat/3.jpg': jpeg(32, 32),
      'pets/val/dog/4.jpg': jpeg(32, 32),
    };
    expect(taskFromLayout(Object.keys(files).map((name) => ({ name, isDirectory: false })))).toBe('classify');
    const result = await precheckArchive(source(files), 'detect');
    expect(result).toMatchObject({ task: 'classify', taskPicked: true, fatal: null, usable: { train: 2, val: 2 } });
    expect(result.report.warnings).toContainEqual(expect.objectContaining({ code: 'dataset/task-picked' }));
  });

  it('a detection zip keeps its task; when every train pair is left out the dataset cannot be used', async () => {
    const yaml = 'names: [a, b]\ntrain: images/train\nval: images/val\n';
    const ok = await precheckArchive(
      source({
        'data.yaml': yaml,
        'images/train/a.jpg': jpeg(32, 32),
        'labels/train/a.txt': '0 0.5 0.5 0.1 0.1\n',
        'images/val/b.jpg': jpeg(32, 32),
        'labels/val/b.txt': '9 0.5 0.5 0.1 0.1\n',
      }),
      'detect',
    );
    expect(ok).toMatchObject({ task: 'detect', taskPicked: false, fatal: null, usable: { train: 1 } });
    expect(ok.report.leftOut).toEqual([expect.objectContaining({ image: 'images/val/b.jpg', code: 'label/class-id' })]);
    expect(ok.report.errorCount).toBe(0);
    const none = await precheckArchive(source({ 'data.yaml': yaml, 'images/train/a.jpg': jpeg(8, 8), 'images/val/b.jpg': jpeg(32, 32) }), 'detect');
    expect(none.fatal).toMatchObject({ code: 'dataset/nothing-usable' });
  });
});

describe('what the page offers after a failure or an interruption', () => {
  it('retry only when the same archive could end differently', async () => {
    const { retryCanHelp } = await import('./errors.js');
    expect(retryCanHelp('dataset/nothing-usable: None of the train images can be used')).toBe(false);
    expect(retryCanHelp('archive/not-a-zip: The file is not a zip archive.')).toBe(false);
    expect(retryCanHelp('error/processing: ECONNRESET')).toBe(true);
    expect(retryCanHelp('error/server-offline')).toBe(true);
    expect(retryCanHelp(null)).toBe(true);
  });

  it('an upload quiet for UPLOAD_QUIET_MS before its last byte waits for its file', async () => {
    const { isWaitingForFile, UPLOAD_QUIET_MS } = await import('../datasets.js');
    const created = '2026-01-01T00:00:00.000Z';
    const at = (ms: number) => Date.parse(created) + ms;
    const partial = { status: 'uploading', offset: 10, bytes: 100, created, updated: created };
    expect(isWaitingForFile(partial, at(UPLOAD_QUIET_MS - 1))).toBe(false);
    expect(isWaitingForFile(partial, at(UPLOAD_QUIET_MS))).toBe(true);
    expect(isWaitingForFile({ ...partial, offset: 100 }, at(UPLOAD_QUIET_MS * 10))).toBe(false);
    expect(isWaitingForFile({ ...partial, status: 'done' }, at(UPLOAD_QUIET_MS * 10))).toBe(false);
  });
});
