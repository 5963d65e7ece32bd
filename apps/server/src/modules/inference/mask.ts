/**
 * ultralytics `ops.process_mask(protos, coeffs, boxes, shape, upsample=True)` for one detection (the predictor's
 * default, retina_masks=False): prototype logits combined with the detection's coefficients, zeroed outside the box
 * at prototype resolution, upsampled bilinearly (align_corners=False) to the model input size and thresholded at 0.
 * The threshold is on logits, which is the same as sigmoid > 0.5; cropping before the upsample is what lets the mask
 * bleed half a prototype cell past the box, as ultralytics' masks do.
 */

export interface Protos {
  data: Float32Array;
  /** Number of prototypes (mask coefficients per detection). */
  count: number;
  height: number;
  width: number;
}

interface AxisTaps {
  i0: Int32Array;
  i1: Int32Array;
  l1: Float32Array;
}

/** PyTorch's `upsample_bilinear2d` source taps for one axis (align_corners=False, source index clamped at 0). */
function bilinearTaps(inSize: number, outSize: number): AxisTaps {
  const scale = Math.fround(inSize / outSize);
  const i0 = new Int32Array(outSize);
  const i1 = new Int32Array(outSize);
  const l1 = new Float32Array(outSize);
  for (let o = 0; o < outSize; o++) {
    const src = Math.max(Math.fround(scale * (o + 0.5) - 0.5), 0);
    const a = Math.trunc(src);
    i0[o] = a;
    i1[o] = a + (a < inSize - 1 ? 1 : 0);
    l1[o] = Math.min(Math.max(src - a, 0), 1);
  }
  return { i0, i1, l1 };
}

const tapCache = new Map<string, AxisTaps>();
function taps(inSize: number, outSize: number): AxisTaps {
  const key = `${inSize}:${outSize}`;
  let t = tapCache.get(key);
  if (!t) {
    if (tapCache.size > 64) tapCache.clear();
    tapCache.set(key, (t = bilinearTaps(inSize, outSize)));
  }
  return t;
}

/**
 * Returns the binary mask (1 = object) at the model input size `outW`x`outH`, and its pixel count.
 * `box` is x1, y1, x2, y2 in model-input pixels; `coeffs` has `protos.count` values.
 */
export function processMask(
  protos: Protos,
  coeffs: ArrayLike<number>,
  box: ArrayLike<number>,
  outW: number,
  outH: number,
): { mask: Uint8Array; pixels: number } {
  const { count: nm, height: mh, width: mw, data } = protos;
  // The box scaled to prototype resolution; a cell is kept when its index lies in [x1, x2) x [y1, y2).
  const bx1 = box[0] * (mw / outW);
  const by1 = box[1] * (mh / outH);
  const bx2 = box[2] * (mw / outW);
  const by2 = box[3] * (mh / outH);
  const cx0 = Math.max(0, Math.ceil(bx1));
  const cy0 = Math.max(0, Math.ceil(by1));
  const cx1 = Math.min(mw - 1, Math.ceil(bx2) - 1);
  const cy1 = Math.min(mh - 1, Math.ceil(by2) - 1);
  const mask = new Uint8Array(outW * outH);
  if (cx1 < cx0 || cy1 < cy0) return { mask, pixels: 0 };

  // Logits only inside the crop; everything else is exactly zero, which never passes the > 0 threshold.
  const logits = new Float32Array(mw * mh);
  const plane = mw * mh;
  for (let y = cy0; y <= cy1; y++) {
    for (let x = cx0; x <= cx1; x++) {
      const cell = y * mw + x;
      let acc = 0;
      for (let k = 0; k < nm; k++) acc += coeffs[k] * data[k * plane + cell];
      logits[cell] = acc;
    }
  }

  const tx = taps(mw, outW);
  const ty = taps(mh, outH);
  // Output pixels whose taps all fall outside the crop stay zero; find the span that can be nonzero.
  const span = (t: AxisTaps, lo: number, hi: number, n: number) => {
    let first = n;
    let last = -1;
    for (let o = 0; o < n; o++) {
      if (t.i1[o] >= lo && t.i0[o] <= hi) {
        if (first === n) first = o;
        last = o;
      }
    }
    return [first, last] as const;
  };
  const [ox0, ox1] = span(tx, cx0, cx1, outW);
  const [oy0, oy1] = span(ty, cy0, cy1, outH);
  let pixels = 0;
  for (let oy = oy0; oy <= oy1; oy++) {
    const r0 = ty.i0[oy] * mw;
    const r1 = ty.i1[oy] * mw;
    const ly1 = ty.l1[oy];
    const ly0 = 1 - ly1;
    for (let ox = ox0; ox <= ox1; ox++) {
      const c0 = tx.i0[ox];
      const c1 = tx.i1[ox];
      const lx1 = tx.l1[ox];
      const lx0 = 1 - lx1;
      const v = ly0 * (lx0 * logits[r0 + c0] + lx1 * logits[r0 + c1]) + ly1 * (lx0 * logits[r1 + c0] + lx1 * logits[r1 + c1]);
      if (v > 0) {
        mask[oy * outW + ox] = 1;
        pixels++;
      }
    }
  }
  return { mask, pixels };
}

/**
 * ultralytics `ops.process_mask(..., upsample=False)`, which its segment validator scores: the mask at prototype
 * resolution, logits > 0 inside the box scaled to that resolution (`outW`x`outH` is the model input size).
 */
export function processMaskAtProtoResolution(protos: Protos, coeffs: ArrayLike<number>, box: ArrayLike<number>, outW: number, outH: number): Uint8Array {
  const { count: nm, height: mh, width: mw, data } = protos;
  const cx0 = Math.max(0, Math.ceil(box[0] * (mw / outW)));
  const cy0 = Math.max(0, Math.ceil(box[1] * (mh / outH)));
  const cx1 = Math.min(mw - 1, Math.ceil(box[2] * (mw / outW)) - 1);
  const cy1 = Math.min(mh - 1, Math.ceil(box[3] * (mh / outH)) - 1);
  const mask = new Uint8Array(mw * mh);
  const plane = mw * mh;
  for (let y = cy0; y <= cy1; y++) {
    for (let x = cx0; x <= cx1; x++) {
      const cell = y * mw + x;
      let acc = 0;
      for (let k = 0; k < nm; k++) acc += coeffs[k] * data[k * plane + cell];
      if (acc > 0) mask[cell] = 1;
    }
  }
  return mask;
}
