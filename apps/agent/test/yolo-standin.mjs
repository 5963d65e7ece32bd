#!/usr/bin/env node
/**
 * A stand-in for the ultralytics `yolo` CLI, for tests on machines without Python/ultralytics.
 * It follows the CLI contract the agent relies on: words `key=value` in, console lines out, files
 * written where ultralytics writes them, exit code 0 on success and 1 on an error; `yolo train`
 * reports to ULTRALYTICS_PLATFORM_URL with ULTRALYTICS_API_KEY over the Platform protocol
 * (platform-protocol.md §4) like the real client: training_started, console_output, epoch_end
 * (stopping when the answer says cancelled), the checkpoint upload, training_complete.
 *
 * Test knobs (env): STANDIN_EPOCH_MS (time per epoch, default 300), STANDIN_PID_FILE (write the
 * pid there), STANDIN_ONNX (a real .onnx file to write as the ONNX export), STANDIN_EXPORT_FAIL=1
 * (the export fails like a missing exporter dependency does), STANDIN_EXPORT_MS (default 200).
 */
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';

const VERSION = '8.4.190';
const [mode, ...words] = process.argv.slice(2);
const args = Object.fromEntries(words.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const out = (line) => process.stdout.write(`${line}\n`);

function fail(message, type = 'RuntimeError') {
  process.stderr.write(`Traceback (most recent call last):\n  File "ultralytics/cfg/__init__.py", line 1010, in entrypoint\n${type}: ${message}\n`);
  process.exit(1);
}

async function api(method, url, body, key) {
  const res = await fetch(url, {
    method,
    headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : {};
}

async function train() {
  const base = (process.env.ULTRALYTICS_PLATFORM_URL ?? '').replace(/\/+$/, '');
  const key = process.env.ULTRALYTICS_API_KEY;
  if (!base || !key) fail('Platform URL and API key are required for ul:// datasets', 'ValueError');
  const epochs = Number(args.epochs ?? 100);
  const epochMs = Number(process.env.STANDIN_EPOCH_MS ?? 300);
  out(`Ultralytics ${VERSION} 🚀 Python-3.11.9 torch-2.5.1+cu124 CUDA:0 (stand-in, 24576MiB)`);
  const ul = /^ul:\/\/([^/]+)\/datasets\/([^/?#]+)$/.exec(args.data ?? '');
  if (!ul) fail(`Dataset '${args.data}' not found`, 'FileNotFoundError');
  const exp = await api('GET', `${base}/api/datasets/${ul[1]}/${ul[2]}/export`, null, key);
  const ndjson = await (await fetch(exp.downloadUrl)).text();
  const images = ndjson.split('\n').filter((l) => l.includes('"type":"image"')).length;
  out(`Converting NDJSON: ${images} images`);
  const started = await api(
    'POST',
    `${base}/api/webhooks/training/metrics`,
    {
      event: 'training_started',
      project: args.project,
      name: args.name,
      data: { trainArgs: { ...args, epochs, task: 'detect' }, epochs, device: '0' },
    },
    key,
  );
  const { modelId, runId } = started;
  out(`Platform: View model at ${base}/${args.project}/${started.modelSlug}`);
  let chunkId = 0;
  const consoleChunk = async (content) =>
    api(
      'POST',
      `${base}/api/webhooks/training/metrics`,
      { event: 'console_output', modelId, data: { chunkId: chunkId++, content, lineCount: content.split('\n').length } },
      key,
    );
  let last = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    const lines = [`      Epoch    GPU_mem   box_loss   cls_loss   dfl_loss  Instances       Size`];
    out(lines[0]);
    await sleep(epochMs);
    const loss = 1.5 / (epoch + 1);
    const map = Math.min(0.95, 0.1 + epoch * 0.08);
    const line = `     ${epoch + 1}/${epochs}      2.1G      ${loss.toFixed(4)}     ${(loss * 0.8).toFixed(4)}     ${(loss * 0.9).toFixed(4)}         12        640: 100%|██████████| ${images}/${images}`;
    out(line);
    await consoleChunk(`${lines[0]}\n${line}\n`);
    const res = await api(
      'POST',
      `${base}/api/webhooks/training/metrics`,
      {
        event: 'epoch_end',
        modelId,
        data: {
          epoch,
          metrics: {
            'train/box_loss': loss,
            'val/box_loss': loss * 1.1,
            'metrics/mAP50(B)': map,
            'metrics/mAP50-95(B)': map * 0.7,
            'metrics/precision(B)': map,
            'metrics/recall(B)': map,
          },
          system: { gpu: 'stand-in' },
        },
      },
      key,
    );
    last = epoch;
    if (res.cancelled) {
      out('Training cancelled from Platform ✋');
      break;
    }
  }
  // A zip-shaped checkpoint (local header … end-of-central-directory), as torch.save writes.
  const weights = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), crypto.randomBytes(4096), Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]);
  fs.mkdirSync('weights', { recursive: true });
  fs.writeFileSync(path.join('weights', 'best.pt'), weights);
  const up = await api('POST', `${base}/api/webhooks/models/upload`, { filename: 'best.pt', modelId, runId }, key);
  const put = await fetch(up.uploadUrl, { method: 'PUT', headers: { 'Content-Type': 'application/octet-stream' }, body: weights });
  if (!put.ok) fail(`upload failed: ${put.status}`);
  await api('POST', `${base}/api/webhooks/training/metrics`, { event: 'checkpoint_saved', modelId, data: { modelPath: up.gcsPath, runId } }, key);
  await consoleChunk(`${last + 1} epochs completed\n`);
  await api(
    'POST',
    `${base}/api/webhooks/training/metrics`,
    {
      event: 'training_complete',
      modelId,
      data: { results: { metrics: { 'metrics/mAP50(B)': 0.5 }, bestEpoch: last, modelPath: up.gcsPath }, classNames: ['circle', 'square', 'triangle'], runId },
    },
    key,
  );
  out(`${last + 1} epochs completed. Results saved to runs/detect/${args.name}`);
}

const SUFFIX = {
  torchscript: ['.torchscript', false],
  onnx: ['.onnx', false],
  openvino: ['_openvino_model', true],
  engine: ['.engine', false],
  coreml: ['.mlpackage', true],
  saved_model: ['_saved_model', true],
  pb: ['.pb', false],
  tflite: ['.tflite', false],
  edgetpu: ['_edgetpu.tflite', false],
  tfjs: ['_web_model', true],
  paddle: ['_paddle_model', true],
  mnn: ['.mnn', false],
  ncnn: ['_ncnn_model', true],
  imx: ['_imx_model', true],
  rknn: ['_rknn_model', true],
};

async function exportModel() {
  const model = args.model ?? '';
  const format = args.format ?? 'torchscript';
  out(`Ultralytics ${VERSION} 🚀 Python-3.11.9 torch-2.5.1+cu124 CPU (stand-in)`);
  if (!fs.existsSync(model)) fail(`'${model}' does not exist`, 'FileNotFoundError');
  // torch.load reads the zip's central directory: a truncated or corrupt .pt fails like this.
  const bytes = fs.readFileSync(model);
  if (bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06])) < 0) fail('PytorchStreamReader failed reading zip archive: failed finding central directory');
  if (!SUFFIX[format]) fail(`Invalid export format='${format}'. Valid formats are ${Object.keys(SUFFIX).join(', ')}`, 'ValueError');
  out(`PyTorch: starting from '${model}' with input shape (1, 3, ${args.imgsz ?? 640}, ${args.imgsz ?? 640}) BCHW`);
  await sleep(Number(process.env.STANDIN_EXPORT_MS ?? 200));
  const [suffix, folder] = SUFFIX[format];
  const target = model.replace(/\.pt$/, '') + suffix;
  if (folder) {
    fs.mkdirSync(target, { recursive: true });
    fs.writeFileSync(path.join(target, 'metadata.yaml'), `format: ${format}\nimgsz: ${args.imgsz ?? 640}\n`);
    fs.writeFileSync(path.join(target, 'model.bin'), crypto.randomBytes(2048));
  } else if (format === 'onnx' && process.env.STANDIN_ONNX) {
    fs.copyFileSync(process.env.STANDIN_ONNX, target);
  } else {
    fs.writeFileSync(target, Buffer.concat([Buffer.from([0x08, 0x07]), crypto.randomBytes(2048)]));
  }
  out(`${format.toUpperCase()}: export success ✅ 0.2s, saved as '${target}'`);
  out(`Export complete (0.3s)\nResults saved to ${process.cwd()}`);
}

try {
  if (mode === 'version') out(VERSION);
  else if (mode === 'train') await train();
  else if (mode === 'export') await exportModel();
  else fail(`'${mode}' is not a valid YOLO argument`, 'SyntaxError');
} catch (err) {
  fail(err.message);
}
