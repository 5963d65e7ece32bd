/**
 * The few numpy routines ultralytics' metrics are built from, reproduced to the same semantics (not just the same
 * idea): `np.linspace`, `np.interp` (including its handling of repeated x values), `np.trapz`, ultralytics'
 * `smooth` box filter and `np.round` (half to even). See ADR 0034.
 */

/** `np.linspace(start, stop, num)`: `start + i * step`, the last point exactly `stop`. */
export function linspace(start: number, stop: number, num: number): Float64Array {
  const out = new Float64Array(num);
  if (num === 1) {
    out[0] = start;
    return out;
  }
  const step = (stop - start) / (num - 1);
  for (let i = 0; i < num; i++) out[i] = i * step + start;
  out[num - 1] = stop;
  return out;
}

/**
 * `np.interp(x, xp, fp, left, right)` for one point. `xp` must be non-decreasing. Like numpy, a query equal to a
 * repeated `xp` value takes the value at the last of the repeats, and one between two values interpolates linearly
 * between the last index at or below it and the next.
 */
export function interpAt(x: number, xp: ArrayLike<number>, fp: ArrayLike<number>, left = fp[0], right = fp[xp.length - 1]): number {
  const n = xp.length;
  if (n === 0) throw new RangeError('interp needs at least one point');
  if (x < xp[0]) return left;
  if (x > xp[n - 1]) return right;
  // last index j with xp[j] <= x
  let lo = 0;
  let hi = n;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x >= xp[mid]) lo = mid + 1;
    else hi = mid;
  }
  const j = lo - 1;
  if (j === n - 1 || xp[j] === x) return fp[j];
  const slope = (fp[j + 1] - fp[j]) / (xp[j + 1] - xp[j]);
  let v = slope * (x - xp[j]) + fp[j];
  if (Number.isNaN(v)) {
    v = slope * (x - xp[j + 1]) + fp[j + 1];
    if (Number.isNaN(v) && fp[j] === fp[j + 1]) v = fp[j];
  }
  return v;
}

export function interp(xs: ArrayLike<number>, xp: ArrayLike<number>, fp: ArrayLike<number>, left?: number, right?: number): Float64Array {
  const out = new Float64Array(xs.length);
  for (let i = 0; i < xs.length; i++) out[i] = interpAt(xs[i], xp, fp, left, right);
  return out;
}

/** `np.trapz(y, x)`. */
export function trapz(y: ArrayLike<number>, x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 1; i < y.length; i++) s += ((x[i] - x[i - 1]) * (y[i] + y[i - 1])) / 2;
  return s;
}

/** ultralytics `smooth(y, f)`: a box filter of `round(len*f*2)//2*2+1`-ish odd width, edges padded with the end values. */
export function smooth(y: ArrayLike<number>, f: number): Float64Array {
  const n = y.length;
  const nf = Math.floor(roundHalfEven(n * f * 2) / 2) + 1; // ultralytics: round(len(y) * f * 2) // 2 + 1
  const pad = Math.floor(nf / 2);
  const padded = new Float64Array(n + 2 * pad);
  for (let i = 0; i < pad; i++) {
    padded[i] = y[0];
    padded[n + pad + i] = y[n - 1];
  }
  for (let i = 0; i < n; i++) padded[pad + i] = y[i];
  const out = new Float64Array(padded.length - nf + 1);
  for (let i = 0; i < out.length; i++) {
    let s = 0;
    for (let k = 0; k < nf; k++) s += padded[i + k] / nf;
    out[i] = s;
  }
  return out;
}

/** First index of the maximum, as `np.argmax`. */
export function argmax(y: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < y.length; i++) if (y[i] > y[best]) best = i;
  return best;
}

/** `np.round` / Python `round`: halves go to the even neighbour. */
export function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

export function mean(values: ArrayLike<number>): number {
  if (values.length === 0) return 0;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += values[i];
  return s / values.length;
}
