/**
 * Fuzzing the upload + processing path with generated hostile archives (ADR 0013; seeded, so a failure
 * reproduces): random names with control characters and unicode, truncated archives, lying sizes and
 * checksums, flipped bytes, nested archives, huge entry counts, odd tar entry types and hostile yaml.
 * Every archive goes through the processing library (the job's own code path); a sample goes the whole
 * way through HTTP (token, tus upload, /process, the job) and the data folder is checked afterwards.
 * Wanted: 0 exceptions out of processing, 0 jobs left non-terminal, 0 files outside the dataset
 * folders, 0 5xx.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../src/platform/db/schema.js';
import { storableJson } from '../src/platform/db/storable.js';
import { processArchive } from '../src/modules/datasets/processing/index.js';
import { buildTar, buildZip, makeImage, type TarEntrySpec, type ZipEntrySpec } from '../src/modules/datasets/processing/test-archives.js';
import { createTestApp, type TestApp } from './support/harness.js';
import { buildUser } from './support/factories.js';

const SEED = Number(process.env.FUZZ_SEED ?? 16);
const COUNT = Number(process.env.FUZZ_COUNT ?? 1200);
const HTTP_EVERY = 20; // every 20th archive also goes through HTTP (60 of 1,200)

/** mulberry32: small, seeded, good enough to pick cases. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
  };
}
type R = ReturnType<typeof rng>;

const CONTROL = [...Array(32).keys()].map((c) => String.fromCharCode(c)).concat(['\u007f', '\u0085', '\u009b']);
const UNICODE = ['é', 'ß', 'ı', '猫', '🐈', '\u202e', '\u200b', '\u0301', '\uff0f', '\u2215', 'Ω', 'ﬁ', '\ufeff', '𝔘', 'ä'];
const TRAVERSAL = ['..', '.', '', '/', '\\', 'C:', '~', '..\\..', '%2e%2e', '....'];
const WORDS = ['images', 'labels', 'train', 'val', 'test', 'data.yaml', 'x.png', 'y.jpg', 'a.txt', '__MACOSX', '.hidden', 'cat', 'dog'];

function hostileSegment(r: R): string {
  const kind = r.int(6);
  if (kind === 0) return r.pick(WORDS);
  if (kind === 1) return `${r.pick(WORDS)}${r.pick(CONTROL)}${r.pick(WORDS)}`;
  if (kind === 2) return Array.from({ length: 1 + r.int(6) }, () => r.pick(UNICODE)).join('') + r.pick(['.png', '.jpg', '.txt', '']);
  if (kind === 3) return r.pick(TRAVERSAL);
  if (kind === 4) return 'n'.repeat(50 + r.int(400));
  return `${r.pick(['img', 'lbl'])}${r.int(1000)}.${r.pick(['png', 'jpg', 'txt', 'yaml', 'zip', 'tar', 'bmp', 'heic'])}`;
}
const hostileName = (r: R) => Array.from({ length: 1 + r.int(5) }, () => hostileSegment(r)).join(r.chance(0.8) ? '/' : '\\');

let images: Buffer[] = [];
const yolo = (r: R, n: number): ZipEntrySpec[] => {
  const entries: ZipEntrySpec[] = [{ name: 'data.yaml', data: 'names: [a, b]\ntrain: images/train\nval: images/val\n' }];
  for (let i = 0; i < n; i++) {
    const split = i % 3 === 0 ? 'val' : 'train';
    entries.push({ name: `images/${split}/i${i}.png`, data: r.pick(images) }, { name: `labels/${split}/i${i}.txt`, data: `${r.int(3)} 0.5 0.5 0.2 0.2\n` });
  }
  return entries;
};

const HOSTILE_YAML = [
  'a: &a [x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e]\nnames: *a\ntrain: images/train\nval: images/val\n',
  `names: ${'['.repeat(3000)}${']'.repeat(3000)}\ntrain: images/train\nval: images/val\n`,
  'names: ["a\\0b", "c\\x07d"]\ntrain: images/train\nval: images/val\n',
  'names: {0: a, 5: b}\ntrain: ../../../../etc\nval: /abs/path\n',
  '\t- not: [valid\n  yaml: {\n',
  'names: !!binary aGVsbG8=\ntrain: !!python/object:os.system [rm]\nval: images/val\n',
  `names: [${'x'.repeat(100_000)}]\ntrain: images/train\nval: images/val\n`,
  '%YAML 9.9\n---\nnames: [a]\n...\n---\nnames: [b]\n',
  'names: [a, b]\ntrain: [images/train, images/train, images/train]\nval: images/val\nnc: -1\n',
  Buffer.from([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]).toString('latin1'),
];

function truncate(r: R, buf: Buffer) {
  return buf.subarray(0, r.int(buf.length));
}
function flip(r: R, buf: Buffer) {
  const out = Buffer.from(buf);
  for (let i = 0, n = 1 + r.int(8); i < n; i++) out[r.int(out.length)] ^= 1 << r.int(8);
  return out;
}

/** One hostile archive and a label of what it is. */
function generate(r: R): { kind: string; bytes: Buffer; ext: string } {
  const kind = r.pick(['names', 'names', 'truncated', 'bitflip', 'lying', 'nested', 'many', 'tar', 'tar', 'yaml', 'garbage', 'slip'] as const);
  switch (kind) {
    case 'names': {
      const entries = yolo(r, 2 + r.int(3));
      for (let k = 0, n = 1 + r.int(6); k < n; k++) entries.push({ name: hostileName(r), data: r.chance(0.5) ? r.pick(images) : 'x' });
      if (r.chance(0.3)) entries[1 + r.int(entries.length - 1)]!.name = hostileName(r);
      return { kind, bytes: buildZip(entries), ext: 'zip' };
    }
    case 'truncated':
      return { kind, bytes: truncate(r, buildZip(yolo(r, 3), {})), ext: 'zip' };
    case 'bitflip':
      return { kind, bytes: flip(r, buildZip(yolo(r, 3).map((e) => ({ ...e, method: r.pick(['store', 'deflate'] as const) })))), ext: 'zip' };
    case 'lying': {
      const entries = yolo(r, 3).map((e) =>
        r.chance(0.4)
          ? {
              ...e,
              declaredSize: r.pick([0, 1, 7, 10 ** 9, 2 ** 32 - 1, r.int(5000)]),
              crc32: r.chance(0.5) ? r.int(2 ** 32) : undefined,
              method: r.pick(['store', 'deflate'] as const),
            }
          : e,
      );
      if (r.chance(0.3)) entries.push({ name: 'images/train/enc.png', data: r.pick(images), encryptedFlag: true });
      if (r.chance(0.3)) entries.push({ name: 'images/train/link.png', data: '../../../../etc/passwd', unixMode: 0o120777 });
      return { kind, bytes: buildZip(entries, r.chance(0.2) ? { aliases: [{ name: 'images/train/alias.png', of: 1 }] } : {}), ext: 'zip' };
    }
    case 'nested': {
      const inner = buildZip(yolo(r, 2));
      const entries = yolo(r, 2);
      entries.push(
        { name: 'images/train/inner.zip', data: inner },
        { name: 'inner.tar', data: buildTar([{ name: 'x.png', data: r.pick(images) }]) },
        { name: 'images/val/fake.png', data: inner },
      );
      return { kind, bytes: buildZip(entries), ext: 'zip' };
    }
    case 'many': {
      const n = 300 + r.int(1200);
      const entries: ZipEntrySpec[] = [{ name: 'data.yaml', data: 'names: [a]\ntrain: images/train\nval: images/train\n' }];
      for (let k = 0; k < n; k++)
        entries.push({ name: r.chance(0.5) ? `images/train/e${k}.png` : `labels/train/e${k}.txt`, data: r.chance(0.1) ? r.pick(images) : '' });
      return { kind, bytes: buildZip(entries), ext: 'zip' };
    }
    case 'tar': {
      const entries: TarEntrySpec[] = yolo(r, 2).map((e) => ({ name: e.name, data: e.data }));
      for (let k = 0, n = 1 + r.int(5); k < n; k++) {
        const type = r.pick(['0', '1', '2', '3', '4', '5', '6', '7', 'S', 'K', 'L', 'g', 'V', 'Z'] as const);
        entries.push({ name: r.chance(0.5) ? hostileName(r) : `images/train/t${k}.png`, data: r.pick(images), type: type as TarEntrySpec['type'] });
      }
      let tar = buildTar(entries);
      const mutate = r.int(10);
      if (mutate < 3) tar = truncate(r, tar);
      else if (mutate < 5) tar = flip(r, tar);
      return { kind, bytes: tar, ext: 'tar' };
    }
    case 'yaml': {
      const entries = yolo(r, 2);
      entries[0] = { name: 'data.yaml', data: r.pick(HOSTILE_YAML) };
      return { kind, bytes: buildZip(entries), ext: 'zip' };
    }
    case 'garbage': {
      const head = r.pick([Buffer.from('PK\u0003\u0004'), Buffer.from('PK\u0005\u0006'), Buffer.alloc(0), Buffer.from([0x1f, 0x8b])]);
      const body = Buffer.from(Array.from({ length: r.int(4096) }, () => r.int(256)));
      const bytes = Buffer.concat([head, body]);
      if (r.chance(0.3) && bytes.length > 300) bytes.write('ustar', 257, 'latin1');
      return { kind, bytes: bytes.length ? bytes : Buffer.from([0]), ext: r.pick(['zip', 'tar']) };
    }
    case 'slip':
    default: {
      const entries = yolo(r, 2);
      entries.push({
        name: r.pick([
          '../../evil.png',
          '/etc/evil.png',
          '..\\..\\evil.png',
          'C:/evil.png',
          'images/../../evil.png',
          `images/train/${'../'.repeat(20)}evil.png`,
        ]),
        data: r.pick(images),
      });
      return { kind, bytes: buildZip(entries), ext: 'zip' };
    }
  }
}

let t: TestApp;
let tmp: string;
beforeAll(async () => {
  images = [await makeImage('png', 32, 24), await makeImage('jpeg', 24, 32, 120), await makeImage('png', 12, 12, 240)];
  t = await createTestApp();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sightline-fuzz-'));
});
afterAll(async () => {
  await t.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

function walk(dir: string, out: string[] = []): string[] {
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}

describe('fuzzing upload + processing with hostile archives', () => {
  it(
    `${COUNT} generated archives (seed ${SEED}): no exception, no 5xx, every job terminal, nothing written outside the dataset folders`,
    { timeout: 300_000 },
    async () => {
      const r = rng(SEED);
      const started = Date.now();
      const kinds = new Map<string, { n: number; ok: number }>();
      let libraryMs = 0;
      const thrown: string[] = [];
      const fiveHundreds: string[] = [];
      const sample: Array<{ id: string; kind: string }> = [];
      const u = await buildUser(t.app);
      const tmpBefore = new Set(fs.readdirSync(os.tmpdir()));

      const call = async (method: 'GET' | 'POST' | 'PATCH' | 'HEAD', url: string, headers: Record<string, string>, payload?: unknown) => {
        const res = await t.app.inject({ method, url, headers, payload: payload as never });
        if (res.statusCode >= 500) fiveHundreds.push(`${method} ${url} → ${res.statusCode} ${res.body.slice(0, 200)}`);
        return res;
      };

      for (let i = 0; i < COUNT; i++) {
        const { kind, bytes, ext } = generate(r);
        const k = kinds.get(kind) ?? { n: 0, ok: 0 };
        kinds.set(kind, k);
        k.n += 1;
        const file = path.join(tmp, `a${i}.${ext}`);
        fs.writeFileSync(file, bytes);
        const t0 = Date.now();
        try {
          const result = await processArchive({
            archivePath: file,
            task: r.pick(['detect', 'segment', 'pose', 'obb', 'classify'] as const),
            concurrency: 1,
            onImage: () => undefined,
          });
          if (result.ok) k.ok += 1;
          // What the job stores must be storable (no NUL survives) and every error must name a code.
          expect(JSON.stringify(storableJson(result.report))).not.toContain('\\u0000');
          for (const e of result.report.errors) expect(e.code).toMatch(/^[a-z]+\/[a-z-]+$/);
        } catch (err) {
          thrown.push(`#${i} ${kind}: ${(err as Error).stack?.split('\n').slice(0, 3).join(' | ')}`);
        } finally {
          fs.rmSync(file, { force: true });
          libraryMs += Date.now() - t0;
        }

        if (i % HTTP_EVERY === 0) {
          const created = await call('POST', '/v1/datasets', { cookie: u.cookie }, { meta: { name: `fuzz ${i}` }, task: 'detect' });
          const id = created.json().data.id as string;
          const name = `a${i}.${ext}`;
          const tok = await call('POST', '/v1/uploads/token', { cookie: u.cookie }, { path: `users/${u.user.id}/datasets/${id}/${name}`, bytes: bytes.length });
          const b64 = (s: string) => Buffer.from(s).toString('base64');
          const create = await call('POST', '/v1/uploads/tus', {
            cookie: u.cookie,
            'tus-resumable': '1.0.0',
            'upload-length': String(bytes.length),
            'upload-metadata': `token ${b64(tok.json().data.token)},filename ${b64(name)}`,
          });
          const loc = new URL(String(create.headers.location), 'http://x').pathname;
          await call(
            'PATCH',
            loc,
            { cookie: u.cookie, 'tus-resumable': '1.0.0', 'upload-offset': '0', 'content-type': 'application/offset+octet-stream' },
            bytes,
          );
          await call('POST', `/v1/datasets/${id}/process`, { cookie: u.cookie });
          sample.push({ id, kind });
          if (sample.length % 10 === 0) await t.app.ctx.jobs.drain();
        }
      }
      await t.app.ctx.jobs.drain();

      // Every sampled dataset ended Ready or Failed with a readable error; every job is done or failed.
      const states = new Map<string, number>();
      for (const s of sample) {
        const d = (await call('GET', `/v1/datasets/${s.id}`, { cookie: u.cookie })).json().data;
        states.set(d.status, (states.get(d.status) ?? 0) + 1);
        expect(['Ready', 'Failed'], `${s.kind}: ${d.status}`).toContain(d.status);
        if (d.status === 'Failed') expect(d.error).toMatch(/^[a-z]+\/[a-z-]+: ./);
        await call('GET', `/v1/datasets/${s.id}/report`, { cookie: u.cookie });
        await call('GET', `/v1/datasets/${s.id}/images?limit=5`, { cookie: u.cookie });
      }
      const open = (await t.database.db.select().from(jobs).where(eq(jobs.queue, 'dataset.process'))).filter(
        (j) => j.status !== 'done' && j.status !== 'failed',
      );

      // Nothing outside users/<uid>/datasets/<id>/ in the data folder (uploads/ holds tus state only).
      const dataDir = fs.realpathSync(t.dataDir);
      const outside = walk(dataDir)
        .map((f) => path.relative(dataDir, f).split(path.sep).join('/'))
        .filter((rel) => !/^(blobs\/)?users\/[^/]+\/datasets\/[^/]+\//.test(rel) && !rel.startsWith('uploads/') && rel !== 'secret');
      const leftovers = fs.readdirSync(os.tmpdir()).filter((f) => !tmpBefore.has(f) && /^sl-dataset-/.test(f));

      const seconds = (Date.now() - started) / 1000;
      console.info(
        `fuzz seed ${SEED}: ${COUNT} archives in ${seconds.toFixed(1)} s (processing library ${(libraryMs / 1000).toFixed(1)} s), ${sample.length} through HTTP (${[...states].map(([s, n]) => `${s} ${n}`).join(', ')}); ` +
          [...kinds].map(([kind, v]) => `${kind} ${v.n} (${v.ok} ok)`).join(', '),
      );
      expect(thrown).toEqual([]);
      expect(fiveHundreds).toEqual([]);
      expect(open).toEqual([]);
      expect(outside).toEqual([]);
      expect(leftovers).toEqual([]);
      expect(COUNT).toBeGreaterThanOrEqual(1000);
    },
  );
});
