/**
 * A bench's HTTP client in a thread of its own: real clients are other processes, so their CPU
 * (multipart encoding, fetch, reading the answer) must not share the event loop of the server they
 * measure. Plain JavaScript, so the thread needs no TypeScript loader. Receives one job at a time
 * ({ url, headers, fields, file, fileName, requests, concurrency }) and answers
 * { latenciesMs, seconds } or { error }.
 */
import { parentPort } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';

async function run(job) {
  const blob = new Blob([job.file]);
  const send = async () => {
    const form = new FormData();
    for (const [k, v] of Object.entries(job.fields)) form.set(k, v);
    form.set('file', blob, job.fileName);
    const t = performance.now();
    const res = await fetch(job.url, { method: 'POST', headers: job.headers, body: form });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${job.url} answered ${res.status}`);
    return performance.now() - t;
  };
  const latenciesMs = [];
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < job.requests) {
        next += 1;
        latenciesMs.push(await send());
      }
    }),
  );
  return { latenciesMs, seconds: (performance.now() - start) / 1000 };
}

parentPort.on('message', (job) => {
  run(job).then(
    (r) => parentPort.postMessage(r),
    (err) => parentPort.postMessage({ latenciesMs: [], seconds: 0, error: String(err) }),
  );
});
