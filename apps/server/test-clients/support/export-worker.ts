/**
 * A real server (in this process, listening on a loopback port) whose built-in export worker runs
 * the given client's `yolo` (ADR 0022). Small on purpose: the suite's shared server support can
 * replace it (startLiveServer with EXPORT_WORKER=auto and EXPORT_WORKER_YOLO).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportWorkerOf } from '../../src/modules/exports/exports.local-worker.js';
import { startLiveServer, type LiveServer } from '../../test/support/wire.js';
import type { Client } from './clients.js';

/** The client's `yolo` as one executable: its env.sh sourced, then yolo with the words given. */
export function yoloCommand(client: Client, dir: string): string {
  if (!client.envScript) return 'yolo';
  const file = path.join(dir, 'yolo');
  fs.writeFileSync(file, `#!/bin/bash\n. ${JSON.stringify(client.envScript)} && exec yolo "$@"\n`, { mode: 0o755 });
  return file;
}

export async function serverWithExportWorker(client: Client): Promise<LiveServer & { tmp: string }> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-export-worker-'));
  const s = await startLiveServer({ EXPORT_WORKER: 'auto', EXPORT_WORKER_YOLO: yoloCommand(client, tmp) });
  return {
    ...s,
    tmp,
    close: async () => {
      await s.close();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

export function workerOf(s: LiveServer) {
  return exportWorkerOf(s.t.app.ctx)!;
}
