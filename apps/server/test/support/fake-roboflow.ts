/**
 * A local fake of Roboflow's REST API, built from shared/reference/roboflow-api.md: root, workspace,
 * project, version, export (202 "generating" N times, then 200 with a short-lived link on another
 * path that 302-redirects to the zip), image search and image details, image bytes. It serves a real
 * small YOLO export zip made with the processing library's zip writer and sharp-made JPEGs.
 * Faults are scripted per route. Server tests start it per file; e2e starts it from e2e/support.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { buildZip, makeImage, type ZipEntrySpec } from '../../src/modules/datasets/processing/test-archives.js';

export type Split = 'train' | 'valid' | 'test';
export interface FakeBox {
  cls: string;
  /** normalised centre/size, as in a YOLO label line */
  cx: number;
  cy: number;
  w: number;
  h: number;
}
export interface FakeImage {
  id: string;
  name: string;
  split: Split;
  boxes: FakeBox[];
}
export interface FakeVersion {
  number: number;
  name?: string;
  /** export GETs answered 202 before the 200 (default 2) */
  exportCalls?: number;
  /** the export never finishes (202 forever) */
  neverReady?: boolean;
  /** serve only the first half of the zip (a truncated file with a matching length) */
  truncatedZip?: boolean;
  /** the download connection drops halfway (the announced length is never reached) */
  cutTransfer?: boolean;
  /** a version with no images: the zip only has READMEs */
  empty?: boolean;
}
export interface FakeProject {
  slug: string;
  name: string;
  type: string;
  classes: string[];
  images: FakeImage[];
  versions: FakeVersion[];
  public?: boolean;
  multilabel?: boolean;
  icon?: boolean;
}
export interface FakeWorkspace {
  slug: string;
  name: string;
  projects: FakeProject[];
}
export interface RecordedRequest {
  method: string;
  path: string;
  /** the raw URL as received (it may carry the key: tests assert where it went) */
  url: string;
  authorization: string | null;
}
export interface ScriptedFault {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}
export type Route = 'root' | 'workspace' | 'project' | 'version' | 'export' | 'link' | 'blob' | 'search' | 'image';

export const IMAGE_W = 64;
export const IMAGE_H = 48;

/** A ready-made object-detection project: 3 classes, 3 splits, 2 versions, 8 labelled images. */
export function sampleDetectionProject(slug = 'shapes-4ckfl'): FakeProject {
  const classes = ['circle', 'square', 'triangle'];
  const images: FakeImage[] = [];
  const splits: Split[] = ['train', 'train', 'train', 'train', 'valid', 'valid', 'test', 'train'];
  splits.forEach((split, i) => {
    images.push({
      id: `img${String(i).padStart(3, '0')}${slug.slice(0, 4)}`,
      name: `shape_${i}_jpg.rf.${(i * 7919).toString(16).padStart(32, '0')}.jpg`,
      split,
      boxes: [
        { cls: classes[i % 3]!, cx: 0.3, cy: 0.4, w: 0.3, h: 0.4 },
        ...(i % 2 === 0 ? [{ cls: classes[(i + 1) % 3]!, cx: 0.7, cy: 0.6, w: 0.2, h: 0.3 }] : []),
      ],
    });
  });
  return {
    slug,
    name: 'Shapes',
    type: 'object-detection',
    classes,
    images,
    versions: [
      { number: 1, name: 'raw' },
      { number: 2, name: 'augmented' },
    ],
    icon: true,
  };
}

/** Class → number of boxes, the way a processed dataset counts instances. */
export function instanceCounts(p: FakeProject) {
  const out: Record<string, number> = {};
  for (const img of p.images) for (const b of img.boxes) out[b.cls] = (out[b.cls] ?? 0) + 1;
  return out;
}

export class FakeRoboflow {
  url = '';
  readonly requests: RecordedRequest[] = [];
  /** link lifetime; 0 makes every link expired on arrival */
  linkTtlMs = 60_000;
  private server: http.Server | null = null;
  private faults = new Map<Route, ScriptedFault[]>();
  private exportCalls = new Map<string, number>();
  private links = new Map<string, { zipKey: string; expires: number }>();
  private zips = new Map<string, Buffer>();

  constructor(
    readonly workspaces: FakeWorkspace[],
    /** private key → workspace slug */
    readonly keys: Record<string, string>,
  ) {}

  async start(port = 0, host = '127.0.0.1') {
    this.server = http.createServer(
      (req, res) =>
        void this.handle(req, res).catch((err) => {
          res.statusCode = 500;
          res.end(JSON.stringify({ error: String(err) }));
        }),
    );
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The next `times` answers of a route are this fault. */
  fail(route: Route, fault: ScriptedFault, times = 1) {
    const list = this.faults.get(route) ?? [];
    for (let i = 0; i < times; i++) list.push(fault);
    this.faults.set(route, list);
  }

  clearFaults() {
    this.faults.clear();
  }

  reset() {
    this.requests.length = 0;
    this.faults.clear();
    this.exportCalls.clear();
    this.links.clear();
    this.linkTtlMs = 60_000;
  }

  project(ws: string, slug: string) {
    return this.workspaces.find((w) => w.slug === ws)?.projects.find((p) => p.slug === slug) ?? null;
  }

  /** The YOLOv8 export zip of a project version, as Roboflow lays it out. */
  async exportZip(ws: FakeWorkspace, p: FakeProject, v: FakeVersion): Promise<Buffer> {
    const key = `${ws.slug}/${p.slug}/${v.number}`;
    const cached = this.zips.get(key);
    if (cached) return cached;
    const entries: ZipEntrySpec[] = [
      { name: 'README.dataset.txt', data: `# ${p.name} > ${v.name ?? 'raw'}\nhttps://universe.roboflow.com/${ws.slug}/${p.slug}\n` },
      {
        name: 'README.roboflow.txt',
        data: `\n${p.name} - v${v.number} ${v.name ?? ''}\n==============================\nThis dataset was exported via roboflow.com\n`,
      },
    ];
    if (!v.empty) {
      const names = [...p.classes].sort();
      entries.push({
        name: 'data.yaml',
        data: `train: ../train/images\nval: ../valid/images\ntest: ../test/images\n\nnc: ${names.length}\nnames: [${names.map((n) => `'${n}'`).join(', ')}]\n\nroboflow:\n  workspace: ${ws.slug}\n  project: ${p.slug}\n  version: ${v.number}\n  license: CC BY 4.0\n  url: https://universe.roboflow.com/${ws.slug}/${p.slug}/dataset/${v.number}\n`,
      });
      for (const [i, img] of p.images.entries()) {
        const stem = img.name.replace(/\.[^.]+$/, '');
        entries.push({ name: `${img.split}/images/${img.name}`, data: await makeImage('jpeg', IMAGE_W, IMAGE_H, (i * 37) % 255) });
        entries.push({
          name: `${img.split}/labels/${stem}.txt`,
          data: img.boxes.map((b) => `${names.indexOf(b.cls)} ${b.cx} ${b.cy} ${b.w} ${b.h}`).join('\n') + '\n',
          method: 'deflate',
        });
      }
    }
    const zip = buildZip(entries);
    this.zips.set(key, zip);
    return zip;
  }

  private keyOf(req: http.IncomingMessage, url: URL, body: Record<string, unknown> | null) {
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    return url.searchParams.get('api_key') ?? bearer ?? (typeof body?.api_key === 'string' ? body.api_key : null);
  }

  /** No network: every connection is dropped unanswered (toggled by tests, or over HTTP with `/__offline?on=1`). */
  offline = false;
  /**
   * No network for the requests of these keys only (over HTTP with `/__offline?on=1&key=K`): a test
   * sharing this fake with others running at the same time cuts off its own calls, not theirs.
   */
  readonly offlineKeys = new Set<string>();

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://fake');
    if (url.pathname === '/__offline') {
      const on = url.searchParams.get('on') === '1';
      const key = url.searchParams.get('key');
      if (key === null) this.offline = on;
      else if (on) this.offlineKeys.add(key);
      else this.offlineKeys.delete(key);
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(JSON.stringify({ offline: key === null ? this.offline : on }));
    }
    if (this.offline) return void req.socket.destroy();
    const headerKey = this.keyOf(req, url, null);
    if (headerKey !== null && this.offlineKeys.has(headerKey)) return void req.socket.destroy();
    this.requests.push({ method: req.method ?? 'GET', path: url.pathname, url: req.url ?? '/', authorization: req.headers.authorization ?? null });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body: Record<string, unknown> | null = null;
    try {
      body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>) : null;
    } catch {
      body = null;
    }
    const json = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(data));
    };
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const route = routeOf(req.method ?? 'GET', parts);
    const fault = route ? this.faults.get(route)?.shift() : undefined;
    if (fault) {
      res.writeHead(fault.status, { 'content-type': 'application/json', ...(fault.headers ?? {}) });
      return res.end(fault.body === undefined ? '' : typeof fault.body === 'string' ? fault.body : JSON.stringify(fault.body));
    }

    // hosts other than the API: the export link, the zip blob, image bytes (no key needed or wanted)
    if (route === 'link') {
      const link = this.links.get(parts[1]!);
      if (!link || url.searchParams.get('key') !== parts[1] || Date.now() > link.expires) return json(403, { error: 'This link has expired.' });
      res.writeHead(302, { location: `/__blob/${parts[1]}.zip` });
      return res.end();
    }
    if (route === 'blob') {
      const code = parts[1]!.replace(/\.zip$/, '');
      const link = this.links.get(code);
      const zip = link ? this.zips.get(link.zipKey) : undefined;
      if (!link || !zip || Date.now() > link.expires) return json(404, { error: 'Not found' });
      const [ws, p, v] = link.zipKey.split('/');
      const version = this.project(ws!, p!)?.versions.find((x) => String(x.number) === v);
      if (version?.cutTransfer) {
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(zip.length) });
        res.write(zip.subarray(0, Math.floor(zip.length / 2)));
        return setTimeout(() => res.destroy(), 20);
      }
      const bytes = version?.truncatedZip ? zip.subarray(0, Math.floor(zip.length / 2)) : zip;
      res.writeHead(200, { 'content-type': 'application/zip', 'content-length': String(bytes.length) });
      return res.end(bytes);
    }
    if (parts[0] === '__img') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.end(await makeImage('jpeg', IMAGE_W, IMAGE_H, parts[1] === 'icons' ? 200 : Number.parseInt(parts[2]!.slice(3, 6), 10) * 37));
    }

    const key = this.keyOf(req, url, body);
    const own = key ? this.keys[key] : undefined;
    if (!own) {
      // Roboflow echoes the key in its 401 body: the importer must scrub it.
      return json(401, {
        error: {
          message: 'This API key does not exist (or has been revoked).',
          status: 401,
          type: 'OAuthException',
          hint: 'You may retrieve your API key via the Roboflow Dashboard. Go to Account > Roboflow Keys to retrieve yours.',
          key,
        },
      });
    }
    const wsMissing = (slug: string) =>
      json(404, {
        error: {
          message: `Unsupported get request. Workspace with ID "${slug}" does not exist or cannot be loaded due to missing permissions.`,
          status: 404,
          type: 'GraphMethodException',
          hint: 'You can see your available workspaces by issuing a GET request to /workspaces',
        },
      });

    if (route === 'root')
      return json(200, {
        welcome: 'Welcome to the Roboflow API.',
        instructions: 'You are successfully authenticated.',
        docs: 'https://docs.roboflow.com',
        workspace: own,
      });
    const ws = this.workspaces.find((w) => w.slug === parts[0]);
    if (route === 'workspace') {
      if (!ws || ws.slug !== own) return wsMissing(parts[0]!);
      return json(200, { workspace: { name: ws.name, url: ws.slug, members: 2, projects: ws.projects.map((p) => this.projectJson(ws, p)) } });
    }
    const p = ws?.projects.find((x) => x.slug === parts[1]);
    if (!ws || !p || (ws.slug !== own && !p.public))
      return json(404, { error: { message: `Project "${parts[0]}/${parts[1]}" not found.`, status: 404, type: 'GraphMethodException' } });
    const wsJson = { name: ws.name, url: ws.slug, members: 2 };
    if (route === 'project')
      return json(200, { workspace: wsJson, project: this.projectJson(ws, p), versions: p.versions.map((v) => this.versionJson(ws, p, v)) });
    if (route === 'search') {
      const limit = Math.min(250, Number(body?.limit ?? 50));
      const offset = Number(body?.offset ?? 0);
      const results = p.images
        .slice(offset, offset + limit)
        .map((img) => ({ id: img.id, name: img.name, split: img.split, labels: [...new Set(img.boxes.map((b) => b.cls))], created: 1700000000000 }));
      return json(200, { offset, total: p.images.length, results });
    }
    if (route === 'image') {
      const img = p.images.find((x) => x.id === parts[3]);
      if (!img) return json(404, { error: 'Image not found.' });
      return json(200, {
        image: {
          id: img.id,
          name: img.name,
          split: img.split,
          tags: [],
          labels: [...new Set(img.boxes.map((b) => b.cls))],
          created: 1700000000,
          annotation: {
            key: img.name,
            width: IMAGE_W,
            height: IMAGE_H,
            boxes: img.boxes.map((b) => ({ label: b.cls, x: b.cx * IMAGE_W, y: b.cy * IMAGE_H, width: b.w * IMAGE_W, height: b.h * IMAGE_H })),
          },
          urls: {
            original: `${this.url}/__img/owner/${img.id}/original.jpg`,
            thumb: `${this.url}/__img/owner/${img.id}/thumb.jpg`,
            annotation: `${this.url}/__img/owner/${img.id}/annotation.jpg`,
          },
        },
      });
    }
    const v = p.versions.find((x) => String(x.number) === parts[2]);
    if (!v) return json(404, { error: { message: `Version ${parts[2]} not found.`, status: 404, type: 'GraphMethodException' } });
    if (route === 'version') return json(200, { workspace: wsJson, project: this.projectJson(ws, p), version: this.versionJson(ws, p, v) });
    if (route === 'export') {
      const format = parts[3]!;
      const valid = p.type === 'classification' ? ['folder', 'multiclass'] : ['yolov8', 'yolov11', 'yolov5pytorch', 'coco', 'voc'];
      if (!valid.includes(format)) return json(400, { error: { message: `Invalid format. Valid formats: ${valid.join(', ')}`, status: 400 } });
      const k = `${ws.slug}/${p.slug}/${v.number}/${format}`;
      const n = (this.exportCalls.get(k) ?? 0) + 1;
      this.exportCalls.set(k, n);
      const needed = v.exportCalls ?? 2;
      if (v.neverReady || n <= needed) return json(202, { progress: v.neverReady ? 0.4 : n / (needed + 1) });
      const zip = await this.exportZip(ws, p, v);
      const code = randomBytes(12).toString('hex');
      this.links.set(code, { zipKey: `${ws.slug}/${p.slug}/${v.number}`, expires: Date.now() + this.linkTtlMs });
      return json(200, {
        workspace: wsJson,
        project: this.projectJson(ws, p),
        version: this.versionJson(ws, p, v),
        export: { format, link: `${this.url}/ds/${code}?key=${code}`, size: zip.length / 1024 / 1024 },
        progress: 1,
      });
    }
    return json(404, { error: 'Not found' });
  }

  private projectJson(ws: FakeWorkspace, p: FakeProject) {
    const splits = { train: 0, valid: 0, test: 0 };
    for (const img of p.images) splits[img.split] += 1;
    const classes: Record<string, number> = {};
    for (const c of p.classes) classes[c] = 0;
    for (const img of p.images) for (const b of img.boxes) classes[b.cls] = (classes[b.cls] ?? 0) + 1;
    return {
      id: `${ws.slug}/${p.slug}`,
      type: p.type,
      name: p.name,
      created: 1630335544.592,
      updated: 1700000000.5,
      images: p.images.length,
      unannotated: 0,
      annotation: 'shapes',
      versions: p.versions.length,
      public: Boolean(p.public),
      splits,
      classes,
      colors: Object.fromEntries(p.classes.map((c, i) => [c, ['#FF0000', '#00FF00', '#0000FF'][i % 3]])),
      ...(p.multilabel ? { multilabel: true } : {}),
      ...(p.icon ? { icon: { original: `${this.url}/__img/icons/${p.slug}/original.jpg`, thumb: `${this.url}/__img/icons/${p.slug}/thumb.jpg` } } : {}),
    };
  }

  private versionJson(ws: FakeWorkspace, p: FakeProject, v: FakeVersion) {
    const splits = { train: 0, valid: 0, test: 0 };
    if (!v.empty) for (const img of p.images) splits[img.split] += 1;
    return {
      id: `${ws.slug}/${p.slug}/${v.number}`,
      name: v.name ?? 'raw',
      created: 1690000000 + v.number * 1000,
      images: v.empty ? 0 : p.images.length,
      splits,
      generating: false,
      progress: 1,
      preprocessing: { 'auto-orient': { enabled: true }, resize: { enabled: true, width: '64', height: '48', format: 'Stretch to' } },
      augmentation: {},
      exports: [],
    };
  }
}

function routeOf(method: string, parts: string[]): Route | null {
  if (parts[0] === 'ds') return 'link';
  if (parts[0] === '__blob') return 'blob';
  if (parts[0] === '__img') return null;
  if (parts.length === 0) return 'root';
  if (parts.length === 1) return 'workspace';
  if (parts.length === 2) return 'project';
  if (parts.length === 3 && parts[2] === 'search' && method === 'POST') return 'search';
  if (parts.length === 4 && parts[2] === 'images') return 'image';
  if (parts.length === 3) return 'version';
  if (parts.length === 4) return 'export';
  return null;
}
