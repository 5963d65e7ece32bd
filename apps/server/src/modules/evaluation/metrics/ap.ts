import type { EvalClassMetrics, EvalCurve, EvalMetrics } from '@sightline/contracts';
import { argmax, interp, linspace, mean, roundHalfEven, smooth, trapz } from './numeric.js';

const EPS = 1e-16;
export const CURVE_POINTS = 1000;
const AP_GRID = linspace(0, 1, 101);

/**
 * ultralytics `compute_ap`: sentinels (recall 0 → precision 1, recall 1 → precision 0), the precision envelope, then
 * 101-point linear interpolation integrated with the trapezoid rule. Returns the AP and the envelope.
 */
export function computeAp(recall: ArrayLike<number>, precision: ArrayLike<number>): { ap: number; mrec: Float64Array; mpre: Float64Array } {
  const n = recall.length;
  const mrec = new Float64Array(n + 2);
  const mpre = new Float64Array(n + 2);
  mrec[0] = 0;
  mpre[0] = 1;
  for (let i = 0; i < n; i++) {
    mrec[i + 1] = recall[i];
    mpre[i + 1] = precision[i];
  }
  mrec[n + 1] = 1;
  mpre[n + 1] = 0;
  for (let i = n; i >= 0; i--) mpre[i] = Math.max(mpre[i], mpre[i + 1]);
  return { ap: trapz(interp(AP_GRID, mrec, mpre), AP_GRID), mrec, mpre };
}

/** What the streaming accumulator hands over: one entry per prediction, in any order. */
export interface ApInput {
  conf: Float32Array;
  cls: Int32Array;
  /** Bit k: true positive at IoU threshold k. */
  tp: Uint16Array;
  /** Labels per class, and images holding the class. */
  instances: number[];
  images: number[];
  classNames: string[];
  thresholds: number;
}

const round4 = (v: number) => Math.round(v * 1e4) / 1e4;

/**
 * ultralytics `ap_per_class` plus `Metric`'s means: AP per class (with labels) and IoU threshold, precision and recall
 * curves on the 1000-point confidence grid, and P, R, F1 at the argmax of the smoothed mean F1 shared by all classes.
 * Predictions are ordered by confidence with a stable sort (numpy's is not stable; ties are rare).
 */
export function apPerClass(input: ApInput): EvalMetrics {
  const { conf, cls, tp, instances, images, classNames } = input;
  const nt = input.thresholds;
  const n = conf.length;
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => conf[b] - conf[a] || a - b);

  const byClass = new Map<number, number[]>();
  for (const i of order) {
    const list = byClass.get(cls[i]);
    if (list) list.push(i);
    else byClass.set(cls[i], [i]);
  }
  const x = linspace(0, 1, CURVE_POINTS);
  const negX = x.map((v) => -v);
  const present = instances.map((c, id) => (c > 0 ? id : -1)).filter((id) => id >= 0);

  const ap: number[][] = [];
  const pCurve: Float64Array[] = [];
  const rCurve: Float64Array[] = [];
  const pr: Array<{ classId: number; y: Float64Array }> = [];
  for (const c of present) {
    const idx = byClass.get(c) ?? [];
    const nl = instances[c];
    const apc = new Array<number>(nt).fill(0);
    let pc: Float64Array = new Float64Array(CURVE_POINTS);
    let rc: Float64Array = new Float64Array(CURVE_POINTS);
    if (idx.length > 0) {
      const m = idx.length;
      const negConf = new Float64Array(m);
      for (let k = 0; k < m; k++) negConf[k] = -conf[idx[k]];
      // one threshold at a time: O(predictions of the class) memory
      const recall = new Float64Array(m);
      const precision = new Float64Array(m);
      for (let t = 0; t < nt; t++) {
        const bit = 1 << t;
        let tpc = 0;
        for (let k = 0; k < m; k++) {
          if (tp[idx[k]] & bit) tpc++;
          recall[k] = tpc / (nl + EPS);
          precision[k] = tpc / (k + 1);
        }
        if (t === 0) {
          rc = interp(negX, negConf, recall, 0);
          pc = interp(negX, negConf, precision, 1);
        }
        const { ap: a, mrec, mpre } = computeAp(recall, precision);
        apc[t] = a;
        if (t === 0) pr.push({ classId: c, y: interp(x, mrec, mpre) });
      }
    }
    ap.push(apc);
    pCurve.push(pc);
    rCurve.push(rc);
  }

  const f1Curve = pCurve.map((p, k) => p.map((pv, i) => (2 * pv * rCurve[k][i]) / (pv + rCurve[k][i] + EPS)));
  const meanOf = (rows: Float64Array[]) => {
    const out = new Float64Array(CURVE_POINTS);
    if (rows.length === 0) return out;
    for (const r of rows) for (let i = 0; i < CURVE_POINTS; i++) out[i] += r[i];
    return out.map((v) => v / rows.length);
  };
  const meanF1 = meanOf(f1Curve);
  const best = argmax(smooth(meanF1, 0.1));

  const perClass: EvalClassMetrics[] = classNames.map((name, c) => ({
    classId: c,
    name,
    images: images[c] ?? 0,
    instances: instances[c] ?? 0,
    predictions: byClass.get(c)?.length ?? 0,
    precision: null,
    recall: null,
    f1: null,
    tp: null,
    fp: null,
    mAP50: null,
    mAP75: null,
    mAP50_95: null,
    ap: null,
  }));
  const ps: number[] = [];
  const rs: number[] = [];
  const fs: number[] = [];
  present.forEach((c, k) => {
    const p = pCurve[k][best];
    const r = rCurve[k][best];
    const f1 = f1Curve[k][best];
    const tpv = roundHalfEven(r * instances[c]);
    ps.push(p);
    rs.push(r);
    fs.push(f1);
    Object.assign(perClass[c], {
      precision: p,
      recall: r,
      f1,
      tp: tpv,
      fp: roundHalfEven(tpv / (p + EPS) - tpv),
      mAP50: ap[k][0],
      mAP75: ap[k][Math.min(5, nt - 1)],
      mAP50_95: mean(ap[k]),
      ap: ap[k],
    });
  });

  const curveSet = (rows: Float64Array[], meanRow: Float64Array): EvalCurve[] => [
    ...present.map((c, k) => ({ classId: c, name: classNames[c] ?? `class${c}`, y: Array.from(rows[k], round4) })),
    { classId: null, name: 'all', y: Array.from(meanRow, round4) },
  ];
  const prMean = meanOf(pr.map((row) => row.y));
  return {
    precision: mean(ps),
    recall: mean(rs),
    f1: mean(fs),
    mAP50: mean(ap.map((a) => a[0])),
    mAP75: mean(ap.map((a) => a[Math.min(5, nt - 1)])),
    mAP50_95: mean(ap.map((a) => mean(a))),
    perClass,
    curves: {
      x: Array.from(x, round4),
      pr: [
        ...pr.map(({ classId, y }) => ({ classId, name: classNames[classId] ?? `class${classId}`, y: Array.from(y, round4) })),
        { classId: null, name: 'all', y: Array.from(prMean, round4) },
      ],
      f1: curveSet(f1Curve, meanF1),
      precision: curveSet(pCurve, meanOf(pCurve)),
      recall: curveSet(rCurve, meanOf(rCurve)),
      bestConfidence: x[best],
      bestF1: meanF1[best],
    },
  };
}
