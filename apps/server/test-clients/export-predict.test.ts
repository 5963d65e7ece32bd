import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentsRepository } from '../src/modules/agents/agents.repository.js';
import { FIXTURES, multipart } from '../test/support/harness.js';
import { buildUser } from '../test/support/factories.js';
import { waitFor } from '../test/support/agents.js';
import type { LiveServer } from '../test/support/wire.js';
import { clients, runClient, type Client } from './support/clients.js';
import { serverWithExportWorker, workerOf } from './support/export-worker.js';

/**
 * Export and preview out of the box (ADR 0022) with the real `yolo`: on a machine where the client
 * runs, the server's built-in export worker exports an uploaded `.pt` to ONNX without anyone
 * pressing a button; the model learns its task, classes and image size from that file; and
 * `/v1/predict` on it finds what the client's own predict finds on the same `.pt`.
 */

const found = clients();
const client: Client | null = found.legacy ?? found.platform;
const PT = path.join(FIXTURES, 'shapes3-detect.pt');
const IMAGES = ['test_0003.png', 'test_0007.png'].map((f) => path.join(FIXTURES, 'test-images', f));
type Box = { cls: number; conf: number; xyxy: [number, number, number, number] };

let s: (LiveServer & { tmp: string }) | null = null;
afterAll(async () => {
  await s?.close();
});

/** The client's own predictions on the .pt (torch), as boxes in image pixels. */
async function clientPredict(imgsz: number): Promise<Box[][]> {
  const script = [
    'import json, sys',
    'from ultralytics import YOLO',
    `m = YOLO(${JSON.stringify(PT)})`,
    `out = []`,
    `for r in m.predict(${JSON.stringify(IMAGES)}, imgsz=${imgsz}, conf=0.25, iou=0.45, device="cpu", verbose=False):`,
    '    out.append([{"cls": int(c), "conf": float(p), "xyxy": [float(v) for v in b]} for b, c, p in zip(r.boxes.xyxy.tolist(), r.boxes.cls.tolist(), r.boxes.conf.tolist())])',
    'print("BOXES " + json.dumps(out))',
  ].join('\n');
  const file = path.join(s!.tmp, 'predict.py');
  fs.writeFileSync(file, script);
  const run = await runClient(client!, `"\${PY:-python3}" ${JSON.stringify(file)}`, { timeoutMs: 120_000 });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(
    run.stdout
      .split('\n')
      .find((l) => l.startsWith('BOXES '))!
      .slice(6),
  ) as Box[][];
}

describe.skipIf(!client)('built-in export worker with the real yolo', () => {
  it(
    `${client?.generation ?? 'no client'}: an uploaded .pt gets its ONNX export, task and classes by itself; /v1/predict matches the client's predict`,
    { timeout: 180_000 },
    async () => {
      const started = Date.now();
      s = await serverWithExportWorker(client!);
      const worker = workerOf(s);
      await waitFor('worker probe', async () => worker.state !== 'probing', 120_000, 200);
      expect(worker.state, worker.reason ?? '').toBe('ready');
      expect(worker.version).toBe(client!.version);
      const probed = (Date.now() - started) / 1000;
      const uploadAt = Date.now();

      const user = await buildUser(s.t.app);
      const mp = multipart({ model_name: 'shapes' }, { filename: 'shapes3-detect.pt', content: fs.readFileSync(PT) });
      const up = await s.t.app.inject({ method: 'POST', url: '/v1/models/upload', headers: { ...mp.headers, cookie: user.cookie }, payload: mp.payload });
      expect(up.statusCode).toBe(201);
      const id = up.json().data.id as string;
      const get = (url: string) => s!.t.app.inject({ method: 'GET', url, headers: { cookie: user.cookie } });
      expect((await get(`/v1/models/${id}`)).json().data).toMatchObject({ origin: 'uploaded', task: null, names: [], imageSize: null });

      // Nobody presses a button: the upload queued the export and the worker started for it.
      const done = await waitFor(
        'ONNX export',
        async () =>
          (await get(`/v1/models/${id}/exports`)).json().data.exports.find((e: { status: string }) => e.status === 'succeeded' || e.status === 'failed'),
        120_000,
        250,
      );
      expect(done, done.error ?? '').toMatchObject({ format: 'onnx', auto: true, status: 'succeeded' });
      const exported = (Date.now() - uploadAt) / 1000;
      const model = (await get(`/v1/models/${id}`)).json().data;
      expect(model).toMatchObject({ task: 'detect', names: ['red_square', 'green_circle', 'blue_triangle'], imageSize: 160, origin: 'uploaded' });
      expect(model.exports.onnx.status).toBe('ready');
      const [builtin] = await agentsRepository.listAgents(s.t.app.ctx.db);
      expect(builtin).toMatchObject({ builtin: true, ultralyticsVersion: client!.version });
      const log = (await get(`/v1/agent-jobs/${done.jobId}/log`)).json().data.lines.join('');
      expect(log).toMatch(/export success/);

      // /v1/predict on the exported ONNX against the client's own predict on the .pt.
      const mine = await clientPredict(model.imageSize);
      let compared = 0;
      let worst = 0;
      for (const [i, image] of IMAGES.entries()) {
        const img = multipart(
          { imgsz: String(model.imageSize), conf: '0.25', iou: '0.45' },
          { filename: path.basename(image), content: fs.readFileSync(image), contentType: 'image/png' },
        );
        const res = await s.t.app.inject({ method: 'POST', url: `/v1/predict/${id}`, headers: { ...img.headers, cookie: user.cookie }, payload: img.payload });
        expect(res.statusCode, res.body).toBe(200);
        const server = (
          res.json().images[0].results as Array<{ class: number; confidence: number; box: { x1: number; y1: number; x2: number; y2: number } }>
        ).map((r) => ({ cls: r.class, conf: r.confidence, xyxy: [r.box.x1, r.box.y1, r.box.x2, r.box.y2] }));
        const theirs = mine[i]!;
        expect(server.length, `${path.basename(image)}: server ${JSON.stringify(server)} vs client ${JSON.stringify(theirs)}`).toBe(theirs.length);
        expect(theirs.length).toBeGreaterThan(0);
        for (const b of theirs) {
          // The server's box of the same class nearest to the client's.
          const match = server.filter((x) => x.cls === b.cls).sort((x, y) => dist(x.xyxy, b.xyxy) - dist(y.xyxy, b.xyxy))[0];
          expect(match, `no server box of class ${b.cls}`).toBeTruthy();
          const d = dist(match!.xyxy, b.xyxy);
          worst = Math.max(worst, d);
          expect(Math.abs(match!.conf - b.conf)).toBeLessThan(0.02);
          compared += 1;
        }
      }
      console.log(
        `[export-predict] ${client!.generation} ${client!.version}: server up and worker probed ${probed.toFixed(1)} s; upload → ONNX export by the built-in worker ${exported.toFixed(1)} s; ` +
          `${compared} boxes compared with the client's predict, largest difference ${worst.toFixed(4)} px`,
      );
      expect(worst).toBeLessThan(1);
    },
  );
});

/** Largest coordinate difference between two boxes, in px. */
function dist(a: number[], b: number[]) {
  return Math.max(...a.map((v, i) => Math.abs(v - b[i]!)));
}
