/**
 * Predict parity between the server (`POST /v1/predict/{id}`) and the client's own predict
 * (py/predict.py) on the same images: boxes matched one to one by class and overlap, the largest
 * corner difference in px, and what did not match.
 *
 *   const client = await clientPredictions(legacy, home, 'best.onnx', 64, images);
 *   const server = await serverPredictions(s, u, modelId, 64, images);
 *   const p = compareBoxes(server, client);   // { boxes, maxDiffPx, unmatched: [...] }
 */
import fs from 'node:fs';
import path from 'node:path';
import { runClient, type Client, type ClientHome } from './clients.js';
import type { SuiteServer, SuiteUser } from './server.js';

export const PY_DIR = path.join(import.meta.dirname, 'py');

/** [x1, y1, x2, y2, conf, cls] per box, per image name. */
export type BoxesByImage = Map<string, number[][]>;

export async function clientPredictions(
  client: Client,
  home: ClientHome,
  model: string,
  imgsz: number,
  images: string[],
  opts: { conf?: number; iou?: number; env?: Record<string, string> } = {},
): Promise<{ boxes: BoxesByImage; names: Record<string, string> }> {
  const q = (s: string) => JSON.stringify(s);
  const run = await runClient(
    client,
    `$PY ${q(path.join(PY_DIR, 'predict.py'))} ${q(model)} ${imgsz} ${opts.conf ?? 0.25} ${opts.iou ?? 0.45} ${images.map(q).join(' ')}`,
    { home, env: opts.env, timeoutMs: 180_000 },
  );
  if (run.code !== 0) throw new Error(`client predict failed (${run.code}):\n${run.stderr.slice(-3000)}`);
  const boxes: BoxesByImage = new Map();
  let names: Record<string, string> = {};
  for (const line of run.stdout.split('\n').filter((l) => l.startsWith('{'))) {
    const r = JSON.parse(line) as { image: string; names: Record<string, string>; boxes: number[][] };
    boxes.set(r.image, r.boxes);
    names = r.names;
  }
  return { boxes, names };
}

export async function serverPredictions(
  s: SuiteServer,
  u: SuiteUser,
  modelId: string,
  imgsz: number,
  images: string[],
  opts: { conf?: number; iou?: number } = {},
): Promise<BoxesByImage> {
  const out: BoxesByImage = new Map();
  for (const image of images) {
    const form = new FormData();
    form.set('imgsz', String(imgsz));
    form.set('conf', String(opts.conf ?? 0.25));
    form.set('iou', String(opts.iou ?? 0.45));
    form.set('file', new Blob([fs.readFileSync(image)]), path.basename(image));
    const res = await fetch(`${s.origin}/v1/predict/${modelId}`, { method: 'POST', headers: { 'x-api-key': u.key }, body: form });
    const body = (await res.json()) as any;
    if (res.status !== 200) throw new Error(`/v1/predict ${res.status}: ${JSON.stringify(body)}`);
    out.set(
      path.basename(image),
      (body.images[0].results as Array<{ class: number; confidence: number; box: { x1: number; y1: number; x2: number; y2: number } }>).map((r) => [
        r.box.x1,
        r.box.y1,
        r.box.x2,
        r.box.y2,
        r.confidence,
        r.class,
      ]),
    );
  }
  return out;
}

function iou(a: number[], b: number[]) {
  const ix = Math.max(0, Math.min(a[2]!, b[2]!) - Math.max(a[0]!, b[0]!));
  const iy = Math.max(0, Math.min(a[3]!, b[3]!) - Math.max(a[1]!, b[1]!));
  const inter = ix * iy;
  const union = (a[2]! - a[0]!) * (a[3]! - a[1]!) + (b[2]! - b[0]!) * (b[3]! - b[1]!) - inter;
  return union > 0 ? inter / union : 0;
}

export interface Parity {
  /** Boxes found by both (same class, best overlap). */
  boxes: number;
  /** Largest |corner difference| over matched boxes, px. */
  maxDiffPx: number;
  /** Largest confidence difference over matched boxes. */
  maxConfDiff: number;
  /** Boxes only one side found: `server|client image [box]` (not counting near-threshold ones). */
  unmatched: string[];
  /** Boxes only one side found whose confidence is within 0.01 of the threshold (a rounding apart). */
  nearThreshold: number;
}

/** Greedy one-to-one matching per image and class by IoU (≥ 0.5); `conf` is the threshold both used. */
export function compareBoxes(server: BoxesByImage, client: BoxesByImage, conf = 0.25): Parity {
  const p: Parity = { boxes: 0, maxDiffPx: 0, maxConfDiff: 0, unmatched: [], nearThreshold: 0 };
  const miss = (side: string, image: string, b: number[]) =>
    Math.abs(b[4]! - conf) < 0.01 ? p.nearThreshold++ : p.unmatched.push(`${side} ${image} ${JSON.stringify(b)}`);
  for (const image of new Set([...server.keys(), ...client.keys()])) {
    const left = [...(client.get(image) ?? [])];
    for (const sb of server.get(image) ?? []) {
      let best = -1;
      let bestIou = 0.5;
      left.forEach((cb, i) => {
        const o = cb[5] === sb[5] ? iou(sb, cb) : 0;
        if (o >= bestIou) [best, bestIou] = [i, o];
      });
      if (best < 0) {
        miss('server', image, sb);
        continue;
      }
      const cb = left.splice(best, 1)[0]!;
      p.boxes++;
      for (let k = 0; k < 4; k++) p.maxDiffPx = Math.max(p.maxDiffPx, Math.abs(sb[k]! - cb[k]!));
      p.maxConfDiff = Math.max(p.maxConfDiff, Math.abs(sb[4]! - cb[4]!));
    }
    for (const cb of left) miss('client', image, cb);
  }
  return p;
}
