/**
 * A dedicated inference endpoint: one worker thread owning one warm model, isolated from the
 * shared engine of the server (its own onnxruntime session and memory).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { InferenceEngine } from './inference.engine.js';

const { modelPath } = workerData as { modelPath: string };
const engine = new InferenceEngine({ maxCacheBytes: 2 * 1024 ** 3, intraOpNumThreads: 1 });

interface Job {
  id: number;
  image: Uint8Array;
  params: { imgsz: number; conf: number; iou: number };
}

async function main() {
  try {
    await engine.load(modelPath);
    parentPort!.postMessage({ type: 'ready' });
  } catch (err) {
    parentPort!.postMessage({ type: 'failed', message: (err as Error).message });
    return;
  }
  parentPort!.on('message', async (job: Job) => {
    try {
      const result = await engine.predict(modelPath, job.image, job.params);
      parentPort!.postMessage({ type: 'result', id: job.id, result });
    } catch (err) {
      const e = err as { code?: string; message: string };
      parentPort!.postMessage({ type: 'error', id: job.id, code: e.code ?? 'inference_failed', message: e.message });
    }
  });
}
void main();
