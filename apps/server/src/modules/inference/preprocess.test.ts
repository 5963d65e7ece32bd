import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeImage } from './decode.js';
import { InferenceError } from './errors.js';
import {
  classifyGeometry,
  classifyImage,
  classifyToChw,
  letterboxGeometry,
  letterboxImage,
  letterboxToChw,
  pyRound,
  toChwFloat,
  valLetterboxGeometry,
} from './preprocess.js';
import { resizeBilinearPil, resizeLinearCv2 } from './resize.js';
import { fixture, readGolden, type GoldenBoxes, type GoldenClassify } from './test-fixtures.js';

const sum = (a: ArrayLike<number>) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i];
  return s;
};

describe('pyRound', () => {
  it('rounds halves to even like Python', () => {
    expect([0.5, 1.5, 2.5, -0.5, -1.5, 22.9, 50.5, 114.2857].map(pyRound)).toEqual([0, 2, 2, 0, -2, 23, 50, 114]);
  });
});

describe('letterboxGeometry', () => {
  it('matches ultralytics for every golden image', () => {
    const g = readGolden<GoldenBoxes>('golden-detect.json');
    for (const im of g.images) {
      const geo = letterboxGeometry(im.width, im.height, [160, 160]);
      expect(geo.scale).toBeCloseTo(im.letterbox.scale, 6);
      expect([geo.resized.width, geo.resized.height]).toEqual(im.letterbox.resized_wh);
      expect([geo.pad.left, geo.pad.top, geo.pad.right, geo.pad.bottom]).toEqual(im.letterbox.pad_ltrb);
      expect(geo.output).toEqual({ width: 160, height: 160 });
    }
  });

  it('splits odd padding with the -0.1/+0.1 rule and uses banker rounding for the resized size', () => {
    // 101x50 into 64x64: r = 64/101, height round(31.68) = 32, so 16 rows each side.
    expect(letterboxGeometry(101, 50, [64, 64]).pad).toEqual({ left: 0, top: 16, right: 0, bottom: 16 });
    // 10x9 into 21 rows: r = 2, 18 rows, dh = 1.5: top round(1.4) = 1, bottom round(1.6) = 2.
    expect(letterboxGeometry(10, 9, [21, 20]).pad).toEqual({ left: 0, top: 1, right: 0, bottom: 2 });
    // r = 0.5: width round(50.5) = 50 in Python, not 51.
    expect(letterboxGeometry(101, 200, [100, 100]).resized).toEqual({ width: 50, height: 100 });
    expect(letterboxGeometry(101, 200, [100, 100]).pad).toEqual({ left: 25, top: 0, right: 25, bottom: 0 });
  });

  it('pads only to the stride for dynamic models (auto) and can refuse to upscale', () => {
    const geo = letterboxGeometry(1280, 720, [640, 640], { auto: true, stride: 32 });
    expect(geo.resized).toEqual({ width: 640, height: 360 });
    expect(geo.output).toEqual({ width: 640, height: 384 });
    expect(geo.pad).toEqual({ left: 0, top: 12, right: 0, bottom: 12 });
    expect(letterboxGeometry(100, 50, [640, 640], { scaleup: false }).resized).toEqual({ width: 100, height: 50 });
    expect(letterboxGeometry(100, 50, [640, 640]).resized).toEqual({ width: 640, height: 320 });
  });

  it('follows the val loader with valLetterboxGeometry: ceil where predict rounds, small images enlarged', () => {
    // 224x160 at 160: predict resizes to 160x114 (round(114.29)), ultralytics' val loader to 160x115 (ceil)
    expect(letterboxGeometry(224, 160, [160, 160]).resized).toEqual({ width: 160, height: 114 });
    const geo = valLetterboxGeometry(224, 160, [160, 160]);
    expect(geo.resized).toEqual({ width: 160, height: 115 });
    expect(geo.pad).toEqual({ left: 0, top: 22, right: 0, bottom: 23 });
    expect(geo.output).toEqual({ width: 160, height: 160 });
    expect(valLetterboxGeometry(100, 140, [160, 160]).resized).toEqual({ width: 115, height: 160 });
    expect(valLetterboxGeometry(160, 120, [160, 160]).resized).toEqual({ width: 160, height: 120 });
  });
});

describe('resizeLinearCv2', () => {
  const noise = (w: number, h: number, seed = 1) => {
    const a = new Uint8Array(w * h * 3);
    let s = seed;
    for (let i = 0; i < a.length; i++) a[i] = (s = (s * 1103515245 + 12345) % 2 ** 31) % 256;
    return a;
  };

  it('keeps a constant image constant when shrinking and enlarging', () => {
    for (const [dw, dh] of [
      [37, 23],
      [200, 150],
      [64, 48],
    ]) {
      const out = resizeLinearCv2(new Uint8Array(97 * 71 * 3).fill(200), 97, 71, dw, dh, 3);
      expect(out.length).toBe(dw * dh * 3);
      expect(out.every((v) => v === 200)).toBe(true);
    }
  });

  it('averages 2x2 blocks with rounding on an exact 2x downscale', () => {
    const src = noise(8, 6);
    const out = resizeLinearCv2(src, 8, 6, 4, 3, 3);
    const at = (x: number, y: number, c: number) => src[(y * 8 + x) * 3 + c];
    for (let y = 0; y < 3; y++)
      for (let x = 0; x < 4; x++)
        for (let c = 0; c < 3; c++) {
          const avg = (at(2 * x, 2 * y, c) + at(2 * x + 1, 2 * y, c) + at(2 * x, 2 * y + 1, c) + at(2 * x + 1, 2 * y + 1, c) + 2) >> 2;
          expect(out[(y * 4 + x) * 3 + c]).toBe(avg);
        }
  });

  it('stays within one level of an exact float bilinear resize', () => {
    const [sw, sh, dw, dh] = [50, 40, 23, 61];
    const src = noise(sw, sh, 7);
    const out = resizeLinearCv2(src, sw, sh, dw, dh, 3);
    let worst = 0;
    for (let y = 0; y < dh; y++) {
      const fy = Math.max(0, (y + 0.5) * (sh / dh) - 0.5);
      const y0 = Math.min(Math.floor(fy), sh - 1);
      const y1 = Math.min(y0 + 1, sh - 1);
      const ly = fy - Math.floor(fy);
      for (let x = 0; x < dw; x++) {
        let fx = (x + 0.5) * (sw / dw) - 0.5;
        fx = Math.min(Math.max(fx, 0), sw - 1);
        const x0 = Math.floor(fx);
        const x1 = Math.min(x0 + 1, sw - 1);
        const lx = fx - x0;
        for (let c = 0; c < 3; c++) {
          const p = (xx: number, yy: number) => src[(yy * sw + xx) * 3 + c];
          const v = (1 - ly) * ((1 - lx) * p(x0, y0) + lx * p(x1, y0)) + ly * ((1 - lx) * p(x0, y1) + lx * p(x1, y1));
          worst = Math.max(worst, Math.abs(out[(y * dw + x) * 3 + c] - v));
        }
      }
    }
    expect(worst).toBeLessThan(1.01);
  });
});

describe('resizeBilinearPil', () => {
  it('antialiases: a 1px checkerboard shrunk 4x becomes flat grey, where a 2-tap bilinear would alias', () => {
    const src = new Uint8Array(64 * 64 * 3);
    for (let y = 0; y < 64; y++) for (let x = 0; x < 64; x++) src.fill((x + y) % 2 ? 255 : 0, (y * 64 + x) * 3, (y * 64 + x) * 3 + 3);
    const out = resizeBilinearPil(src, 64, 64, 16, 16, 3);
    // Interior pixels average whole periods of the checkerboard.
    for (let y = 1; y < 15; y++) for (let x = 1; x < 15; x++) expect(Math.abs(out[(y * 16 + x) * 3] - 127.5)).toBeLessThanOrEqual(1);
  });

  it('returns a copy for the identity size and resizes one axis only when asked', () => {
    const src = Uint8Array.from({ length: 5 * 4 * 3 }, (_, i) => i);
    const same = resizeBilinearPil(src, 5, 4, 5, 4, 3);
    expect(same).toEqual(src);
    expect(same).not.toBe(src);
    expect(resizeBilinearPil(src, 5, 4, 5, 8, 3).length).toBe(5 * 8 * 3);
  });
  it('the unrolled RGB passes give what the plain per-channel loops give, for 1 to 8 taps and beyond', () => {
    // Downscales from 1x to 7x (2 to 16 taps per axis) and upscales; each channel resized on its own takes the
    // generic loops, the RGB image the unrolled ones (ADR 0041).
    const w = 90;
    const h = 70;
    const src = Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 7919 + (i >> 4) * 131) % 256);
    const planes = [0, 1, 2].map((c) => Uint8Array.from({ length: w * h }, (_, p) => src[p * 3 + c]));
    const unit = Float32Array.from({ length: 256 }, (_, v) => v);
    for (const [dw, dh] of [
      [90, 35],
      [45, 70],
      [60, 47],
      [30, 23],
      [23, 18],
      [18, 14],
      [15, 11],
      [13, 10],
      [160, 120],
    ]) {
      const rgb = resizeBilinearPil(src, w, h, dw, dh, 3);
      const chw = { out: new Float32Array(dw * dh * 3), unit };
      resizeBilinearPil(src, w, h, dw, dh, 3, undefined, chw);
      planes.forEach((plane, c) => {
        const alone = resizeBilinearPil(plane, w, h, dw, dh, 1);
        expect(Uint8Array.from({ length: dw * dh }, (_, p) => rgb[p * 3 + c])).toEqual(alone);
        expect(Uint8Array.from(chw.out.subarray(c * dw * dh, (c + 1) * dw * dh))).toEqual(alone);
      });
    }
  });
});

describe('one-pass preprocessing', () => {
  const noise = (w: number, h: number) => Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 7919 + (i >> 5) * 31) % 256);

  it('letterboxToChw gives exactly toChwFloat(letterboxImage(...)), padding included', () => {
    const img = { data: noise(64, 48), width: 64, height: 48 };
    for (const [target, auto] of [
      [[96, 96], false],
      [[96, 96], true],
      [[40, 80], false],
      [[48, 64], false],
    ] as const) {
      const geo = letterboxGeometry(img.width, img.height, [...target] as [number, number], { auto, stride: 32 });
      expect(letterboxToChw(img, geo)).toEqual(toChwFloat(letterboxImage(img, geo)));
    }
  });

  it('a reused tensor buffer full of other values gives exactly the fresh result; one of another size is not used', () => {
    const img = { data: noise(64, 48), width: 64, height: 48 };
    const geo = letterboxGeometry(img.width, img.height, [96, 96], { auto: false, stride: 32 });
    const dirty = new Float32Array(3 * 96 * 96).fill(Number.NaN);
    const out = letterboxToChw(img, geo, dirty);
    expect(out).toBe(dirty);
    expect(out).toEqual(letterboxToChw(img, geo));
    const dirtyChw = new Float32Array(3 * 64 * 48).fill(-7);
    expect(toChwFloat(img, dirtyChw)).toBe(dirtyChw);
    expect(dirtyChw).toEqual(toChwFloat(img));
    const wrong = new Float32Array(10);
    expect(letterboxToChw(img, geo, wrong)).not.toBe(wrong);
    expect(toChwFloat(img, wrong)).not.toBe(wrong);
  });

  it('resizeBilinearPil with a window gives the same bytes as cropping the full resize', () => {
    const src = noise(50, 37);
    const full = resizeBilinearPil(src, 50, 37, 23, 29, 3);
    for (const win of [
      { left: 0, top: 0, width: 23, height: 29 },
      { left: 3, top: 5, width: 11, height: 7 },
      { left: 22, top: 28, width: 1, height: 1 },
    ]) {
      const part = resizeBilinearPil(src, 50, 37, 23, 29, 3, win);
      const expected = new Uint8Array(win.width * win.height * 3);
      for (let y = 0; y < win.height; y++)
        expected.set(full.subarray(((y + win.top) * 23 + win.left) * 3, ((y + win.top) * 23 + win.left + win.width) * 3), y * win.width * 3);
      expect(part).toEqual(expected);
    }
    // Unchanged width or height: the window is a plain crop of that axis.
    expect(resizeBilinearPil(src, 50, 37, 50, 20, 3, { left: 10, top: 2, width: 5, height: 4 })).toEqual(
      cropOf(resizeBilinearPil(src, 50, 37, 50, 20, 3), 50, { left: 10, top: 2, width: 5, height: 4 }),
    );
    expect(() => resizeBilinearPil(src, 50, 37, 23, 29, 3, { left: 20, top: 0, width: 5, height: 1 })).toThrow(RangeError);
  });

  it('classifyImage pads where a non-square crop leaves the image, as before', () => {
    const img = { data: noise(30, 20), width: 30, height: 20 };
    const geo = classifyGeometry(30, 20, [24, 40]);
    const out = classifyImage(img, geo);
    const full = resizeBilinearPil(img.data, 30, 20, geo.resized.width, geo.resized.height, 3);
    for (let y = 0; y < 24; y++) {
      for (let x = 0; x < 40; x++) {
        const sx = x + geo.crop.left;
        const sy = y + geo.crop.top;
        const inside = sx >= 0 && sy >= 0 && sx < geo.resized.width && sy < geo.resized.height;
        expect(out.data[(y * 40 + x) * 3]).toBe(inside ? full[(sy * geo.resized.width + sx) * 3] : 0);
      }
    }
  });
});

describe('classifyToChw (ADR 0041)', () => {
  const noise = (w: number, h: number) => Uint8Array.from({ length: w * h * 3 }, (_, i) => (i * 7919 + (i >> 5) * 31) % 256);
  it('gives exactly toChwFloat(classifyImage(...)) for downscales, upscales, no resize and padded crops', () => {
    for (const [w, h, target] of [
      [640, 480, [224, 224]],
      [480, 640, [224, 224]],
      [100, 37, [64, 64]],
      [64, 64, [64, 64]],
      [30, 20, [24, 40]],
      [300, 200, [96, 128]],
    ] as Array<[number, number, [number, number]]>) {
      const img = { data: noise(w, h), width: w, height: h };
      const geo = classifyGeometry(w, h, target);
      expect(classifyToChw(img, geo)).toEqual(toChwFloat(classifyImage(img, geo)));
    }
  });

  it('fills a reused tensor completely, and the coefficient cache gives the same values a second time', () => {
    const img = { data: noise(320, 240), width: 320, height: 240 };
    const geo = classifyGeometry(320, 240, [96, 96]);
    const want = toChwFloat(classifyImage(img, geo));
    const dirty = new Float32Array(3 * 96 * 96).fill(7);
    expect(classifyToChw(img, geo, dirty)).toBe(dirty);
    expect(dirty).toEqual(want);
    expect(classifyToChw(img, geo)).toEqual(want);
  });
});

function cropOf(data: Uint8Array, width: number, win: { left: number; top: number; width: number; height: number }) {
  const out = new Uint8Array(win.width * win.height * 3);
  for (let y = 0; y < win.height; y++)
    out.set(data.subarray(((y + win.top) * width + win.left) * 3, ((y + win.top) * width + win.left + win.width) * 3), y * win.width * 3);
  return out;
}

describe('letterbox parity with ultralytics (OpenCV 4.6)', () => {
  const g = readGolden<GoldenBoxes>('golden-detect.json');
  it.each(g.images.map((im) => [im.file, im] as const))('%s letterboxes to the exact bytes ultralytics fed the model', async (_file, im) => {
    const img = await decodeImage(readFileSync(path.join(fixture('test-images'), im.file)));
    expect([img.width, img.height]).toEqual([im.width, im.height]);
    const lb = letterboxImage(img, letterboxGeometry(img.width, img.height, [160, 160]));
    expect(createHash('sha256').update(lb.data).digest('hex')).toBe(im.input_check.sha256_letterboxed_rgb_hwc_uint8);
    expect(sum(toChwFloat(lb))).toBeCloseTo(im.input_check.sum_of_input_tensor, 2);
  });
});

describe('classify transform parity with torchvision on PIL', () => {
  const g = readGolden<GoldenClassify>('golden-classify.json');
  it('reproduces the input tensor of all 35 images (crops and resized full images)', async () => {
    let worst = 0;
    for (const im of g.images) {
      const img = await decodeImage(readFileSync(path.join(fixture('.'), im.file)));
      const t = toChwFloat(classifyImage(img, classifyGeometry(img.width, img.height, [64, 64])));
      expect(t.length).toBe(3 * 64 * 64);
      worst = Math.max(worst, Math.abs(sum(t) - im.input_check.sum_of_input_tensor));
    }
    // The golden sums are rounded to 1e-3; one 8-bit level on one pixel would already move the sum by 3.9e-3.
    expect(worst).toBeLessThan(1.5e-3);
  });

  it('resizes the shorter side, truncating the longer one, then centre-crops', () => {
    expect(classifyGeometry(300, 180, [64, 64])).toEqual({ resized: { width: 106, height: 64 }, crop: { left: 21, top: 0, width: 64, height: 64 } });
    expect(classifyGeometry(100, 140, [64, 64])).toEqual({ resized: { width: 64, height: 89 }, crop: { left: 0, top: 12, width: 64, height: 64 } });
    expect(classifyGeometry(120, 90, [48, 64]).resized).toEqual({ width: 64, height: 48 });
  });
});

describe('decodeImage', () => {
  it('applies EXIF orientation like cv2.imread', async () => {
    // 3x2 image, red left column; orientation 6 means "rotate 90 degrees clockwise to display".
    const raw = Buffer.alloc(3 * 2 * 3, 0);
    for (const y of [0, 1]) raw.set([255, 0, 0], y * 9);
    const jpeg = await sharp(raw, { raw: { width: 3, height: 2, channels: 3 } })
      .png()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const img = await decodeImage(jpeg);
    expect([img.width, img.height]).toEqual([2, 3]);
    // After a clockwise turn the red column becomes the top row.
    expect([...img.data.subarray(0, 6)]).toEqual([255, 0, 0, 255, 0, 0]);
  });

  it('turns greyscale, alpha and 16-bit images into 8-bit RGB', async () => {
    const grey = await sharp(Buffer.from([10, 20, 30, 40]), { raw: { width: 2, height: 2, channels: 1 } })
      .png()
      .toBuffer();
    expect([...(await decodeImage(grey)).data]).toEqual([10, 10, 10, 20, 20, 20, 30, 30, 30, 40, 40, 40]);
    const rgba = await sharp(Buffer.from([1, 2, 3, 0, 4, 5, 6, 255]), { raw: { width: 2, height: 1, channels: 4 } })
      .png()
      .toBuffer();
    expect([...(await decodeImage(rgba)).data]).toEqual([1, 2, 3, 4, 5, 6]);
    const deep = await sharp(new Uint16Array([65535, 0, 32896, 257, 514, 771]), { raw: { width: 2, height: 1, channels: 3 } })
      .toColourspace('rgb16')
      .png()
      .toBuffer();
    expect([...(await decodeImage(deep)).data]).toEqual([255, 0, 128, 1, 2, 3]);
  });

  it('rejects bytes that are not an image, and decompression bombs', async () => {
    await expect(decodeImage(Buffer.from('definitely not an image'))).rejects.toMatchObject({ code: 'invalid_image' });
    const big = await sharp({ create: { width: 200, height: 200, channels: 3, background: '#000' } })
      .png()
      .toBuffer();
    const err = await decodeImage(big, { maxPixels: 100 * 100 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InferenceError);
    expect((err as InferenceError).code).toBe('invalid_image');
  });
});
