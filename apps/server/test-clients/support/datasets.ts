/**
 * Small generated datasets for the client suite: filled shapes (red square, green circle, blue
 * triangle) on noisy gradients, seeded, in the HUB upload layout the dataset pipeline reads
 * (`<name>/data.yaml`, `<name>/images|labels/{train,val}`; classify: `<name>/{train,val}/<class>/`).
 * Small on purpose: the real client trains on 2 CPU cores within the suite's budget.
 *
 *   const zip = await makeDatasetZip({ task: 'detect', images: 40, size: [96, 160], seed: 1 });
 *
 * Tasks: detect (boxes), segment (polygons), pose (triangles only, kpt_shape [3, 3]: its three
 * corners), classify (one crop per image, 64×64, class = folder). 4 of every 5 images are train,
 * the rest val.
 */
import yazl from 'yazl';
import sharp from 'sharp';

export type DatasetTask = 'detect' | 'segment' | 'pose' | 'classify';

export const SHAPE_CLASSES = ['red_square', 'green_circle', 'blue_triangle'] as const;
const COLORS: Record<(typeof SHAPE_CLASSES)[number], [number, number, number]> = {
  red_square: [220, 40, 40],
  green_circle: [40, 190, 60],
  blue_triangle: [40, 70, 220],
};

export interface DatasetSpec {
  task: DatasetTask;
  /** Number of images (train + val); default 40. */
  images?: number;
  /** Image side range in px, [min, max]; default [96, 160]. */
  size?: [number, number];
  seed?: number;
  /** Folder name inside the zip; default `shapes-<task>`. */
  name?: string;
}

export interface GeneratedDataset {
  zip: Buffer;
  filename: string;
  /** Class names in index order (classify: alphabetical, as ultralytics orders folders). */
  names: string[];
  train: number;
  val: number;
}

function rng(seed: number) {
  let a = seed >>> 0 || 1;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Pt = [number, number];
interface Shape {
  cls: number;
  /** Outline (a 24-gon for the circle). */
  poly: Pt[];
}

function inside(poly: Pt[], x: number, y: number) {
  let c = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) c = !c;
  }
  return c;
}

function makeShape(cls: number, cx: number, cy: number, r: number, angle: number): Shape {
  const name = SHAPE_CLASSES[cls]!;
  const n = name === 'red_square' ? 4 : name === 'blue_triangle' ? 3 : 24;
  const poly: Pt[] = [];
  // Triangle corners in a fixed order (top first), so pose keypoints are the same corner every time.
  const start = name === 'blue_triangle' ? -Math.PI / 2 + angle * 0.3 : angle;
  for (let i = 0; i < n; i++) {
    const t = start + (i * 2 * Math.PI) / n;
    poly.push([cx + r * Math.cos(t), cy + r * Math.sin(t)]);
  }
  return { cls, poly };
}

function bbox(poly: Pt[]) {
  const xs = poly.map((p) => p[0]);
  const ys = poly.map((p) => p[1]);
  return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
}

/** One RGB image with 1–3 shapes (pose: triangles only) that do not overlap. */
function drawImage(rand: () => number, w: number, h: number, classes: number[]) {
  const px = Buffer.alloc(w * h * 3);
  const c0 = [rand() * 120 + 60, rand() * 120 + 60, rand() * 120 + 60];
  const c1 = [rand() * 120 + 60, rand() * 120 + 60, rand() * 120 + 60];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const t = (x + y) / (w + h);
      for (let k = 0; k < 3; k++) px[(y * w + x) * 3 + k] = Math.max(0, Math.min(255, c0[k]! * (1 - t) + c1[k]! * t + (rand() - 0.5) * 30));
    }
  }
  const shapes: Shape[] = [];
  const count = 1 + Math.floor(rand() * 3);
  for (let tries = 0; shapes.length < count && tries < 50; tries++) {
    const side = Math.min(w, h);
    const r = side * (0.12 + rand() * 0.1);
    const cx = r + rand() * (w - 2 * r);
    const cy = r + rand() * (h - 2 * r);
    if (
      shapes.some((s) => {
        const b = bbox(s.poly);
        return Math.hypot((b.x1 + b.x2) / 2 - cx, (b.y1 + b.y2) / 2 - cy) < r + (b.x2 - b.x1) / 2 + 2;
      })
    )
      continue;
    shapes.push(makeShape(classes[Math.floor(rand() * classes.length)]!, cx, cy, r, rand() * Math.PI));
  }
  for (const s of shapes) {
    const b = bbox(s.poly);
    const color = COLORS[SHAPE_CLASSES[s.cls]!];
    for (let y = Math.max(0, Math.floor(b.y1)); y < Math.min(h, Math.ceil(b.y2)); y++) {
      for (let x = Math.max(0, Math.floor(b.x1)); x < Math.min(w, Math.ceil(b.x2)); x++) {
        if (!inside(s.poly, x + 0.5, y + 0.5)) continue;
        for (let k = 0; k < 3; k++) px[(y * w + x) * 3 + k] = Math.max(0, Math.min(255, color[k]! + (rand() - 0.5) * 20));
      }
    }
  }
  return { px, shapes };
}

const f = (v: number) => v.toFixed(6);
const clamp01 = (v: number) => Math.max(0, Math.min(1, v));

function labelLine(task: DatasetTask, s: Shape, w: number, h: number) {
  const b = bbox(s.poly);
  const x1 = Math.max(0, b.x1),
    y1 = Math.max(0, b.y1),
    x2 = Math.min(w, b.x2),
    y2 = Math.min(h, b.y2);
  const box = [f((x1 + x2) / 2 / w), f((y1 + y2) / 2 / h), f((x2 - x1) / w), f((y2 - y1) / h)];
  if (task === 'segment') return [s.cls, ...s.poly.flatMap(([x, y]) => [f(clamp01(x / w)), f(clamp01(y / h))])].join(' ');
  if (task === 'pose') return [0, ...box, ...s.poly.flatMap(([x, y]) => [f(clamp01(x / w)), f(clamp01(y / h)), 2])].join(' ');
  return [s.cls, ...box].join(' ');
}

/** Builds the dataset zip in memory (deterministic for a seed). */
export async function makeDatasetZip(spec: DatasetSpec): Promise<GeneratedDataset> {
  const { task } = spec;
  const total = spec.images ?? 40;
  const [lo, hi] = spec.size ?? [96, 160];
  const rand = rng(spec.seed ?? 1);
  const name = spec.name ?? `shapes-${task}`;
  const zip = new yazl.ZipFile();
  // Pose: one class (the triangle) whose three corners are the keypoints.
  const classes = task === 'pose' ? [2] : [0, 1, 2];
  const names = task === 'pose' ? ['blue_triangle'] : task === 'classify' ? [...SHAPE_CLASSES].sort() : [...SHAPE_CLASSES];
  let train = 0;
  let val = 0;
  for (let i = 0; i < total; i++) {
    const split = i % 5 === 4 ? 'val' : 'train';
    if (split === 'val') val++;
    else train++;
    if (task === 'classify') {
      const cls = i % 3;
      const { px } = drawImage(() => rand(), 64, 64, [cls]);
      // One centred shape per crop: draw again until it holds exactly the class (first shape is enough).
      const jpg = await sharp(px, { raw: { width: 64, height: 64, channels: 3 } })
        .jpeg({ quality: 90 })
        .toBuffer();
      zip.addBuffer(jpg, `${name}/${split}/${SHAPE_CLASSES[cls]}/${split}_${String(i).padStart(4, '0')}.jpg`);
      continue;
    }
    const w = Math.round(lo + rand() * (hi - lo));
    const h = Math.round(lo + rand() * (hi - lo));
    const { px, shapes } = drawImage(rand, w, h, classes);
    const jpg = await sharp(px, { raw: { width: w, height: h, channels: 3 } })
      .jpeg({ quality: 90 })
      .toBuffer();
    const stem = `${split}_${String(i).padStart(4, '0')}`;
    zip.addBuffer(jpg, `${name}/images/${split}/${stem}.jpg`);
    zip.addBuffer(Buffer.from(shapes.map((s) => labelLine(task, s, w, h)).join('\n') + '\n'), `${name}/labels/${split}/${stem}.txt`);
  }
  if (task !== 'classify') {
    const yaml = [
      'train: images/train',
      'val: images/val',
      ...(task === 'pose' ? ['kpt_shape: [3, 3]'] : []),
      'names:',
      ...names.map((n, i) => `  ${i}: ${n}`),
      '',
    ].join('\n');
    zip.addBuffer(Buffer.from(yaml), `${name}/data.yaml`);
  }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream) chunks.push(c as Buffer);
  return { zip: Buffer.concat(chunks), filename: `${name}.zip`, names, train, val };
}
