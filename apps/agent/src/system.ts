import { execFile } from 'node:child_process';
import os from 'node:os';

/** What the hub needs to know about this host: GPUs (nvidia-smi), CPU, ultralytics version (`yolo version`). */
export interface SystemInfo {
  hostname: string;
  gpus: Array<{ name: string; memoryMb: number }>;
  cpu: string | null;
  cpuCount: number;
  ultralyticsVersion: string | null;
}

function run(cmd: string, args: string[], timeoutMs = 20_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/** `nvidia-smi --query-gpu=name,memory.total --format=csv,noheader,nounits` → one line per GPU. */
export function parseNvidiaSmi(out: string): Array<{ name: string; memoryMb: number }> {
  return out
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
    .map((l) => {
      const i = l.lastIndexOf(',');
      return { name: l.slice(0, i).trim(), memoryMb: Math.round(Number(l.slice(i + 1).trim())) || 0 };
    })
    .filter((g) => g.name);
}

/** `yolo version` prints the version on its last line (after possible warnings). */
export function parseYoloVersion(out: string | null): string | null {
  const lines = (out ?? '').trim().split('\n');
  const last = lines[lines.length - 1]?.trim() ?? '';
  return /^\d+\.\d+\.\d+/.test(last) ? last.split(/\s+/)[0]! : null;
}

export async function detectSystem(yolo: string): Promise<SystemInfo> {
  const [smi, version] = await Promise.all([run('nvidia-smi', ['--query-gpu=name,memory.total', '--format=csv,noheader,nounits']), run(yolo, ['version'], 120_000)]);
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    gpus: smi ? parseNvidiaSmi(smi) : [],
    cpu: cpus[0]?.model.trim() ?? null,
    cpuCount: cpus.length,
    ultralyticsVersion: parseYoloVersion(version),
  };
}
