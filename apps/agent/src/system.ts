import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * What the hub needs to know about this host: GPUs (nvidia-smi; none = a CPU host), CPU, the
 * ultralytics version and whether it speaks the Platform protocol (the probe below; ADR 0021).
 */
export interface SystemInfo {
  hostname: string;
  gpus: Array<{ name: string; memoryMb: number }>;
  cpu: string | null;
  cpuCount: number;
  ultralyticsVersion: string | null;
  /** null: not probed (the yolo launcher is no Python script and no --python was given). */
  platformProtocol: boolean | null;
}

function run(cmd: string, args: string[], timeoutMs = 20_000, env?: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: timeoutMs, maxBuffer: 1024 * 1024, env: env ?? process.env }, (err, stdout) => resolve(err ? null : stdout));
  });
}

/** A command on PATH (or a path) → its file, or null. */
function which(cmd: string): string | null {
  if (cmd.includes('/')) return fs.existsSync(cmd) ? cmd : null;
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, cmd);
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // next
    }
  }
  return null;
}

/**
 * The Python behind a `yolo` launcher, from its first line (`#!/usr/bin/python3`,
 * `#!/usr/bin/env python3`): pip's console scripts are such launchers. Null for anything else.
 */
export function interpreterOf(shebang: string): string[] | null {
  const m = /^#!\s*(.+)$/.exec(shebang.split('\n')[0] ?? '');
  if (!m) return null;
  let words = m[1]!.trim().split(/\s+/);
  if (path.basename(words[0]!) === 'env') words = words.slice(1).filter((w) => !w.startsWith('-'));
  return words.length && /python/i.test(path.basename(words[0]!)) ? words : null;
}

export function pythonOf(yolo: string): string[] | null {
  const file = which(yolo);
  if (!file) return null;
  try {
    const fd = fs.openSync(file, 'r');
    const buf = Buffer.alloc(256);
    const n = fs.readSync(fd, buf, 0, 256, 0);
    fs.closeSync(fd);
    return interpreterOf(buf.subarray(0, n).toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * The probe (ADR 0021): asks the ultralytics package itself whether it resolves a `ul://` dataset
 * through the Platform protocol at ULTRALYTICS_PLATFORM_URL — the path every cloud run takes — by
 * calling its own check_file() with requests.head replaced (nothing leaves the host). 8.3.x treats
 * `ul://` as a missing local file (and a run fails with "Dataset 'ul://…' does not exist"); releases
 * with the Platform protocol ask `<url>/api/webhooks/datasets/<owner>/<slug>/export`.
 */
export const PROBE_PY = `
import json, os
os.environ["ULTRALYTICS_PLATFORM_URL"] = "http://sightline-probe.invalid"
os.environ["ULTRALYTICS_API_KEY"] = "probe"
out = {"version": None, "platform": False}
try:
    import ultralytics
    out["version"] = ultralytics.__version__
    import requests
    seen = []
    class Missing:
        status_code = 404
        headers = {}
    def head(url, *args, **kwargs):
        seen.append(str(url))
        return Missing()
    requests.head = head
    from ultralytics.utils.checks import check_file
    try:
        check_file("ul://probe/datasets/probe", hard=False)
    except Exception:
        pass
    out["platform"] = any(u.startswith("http://sightline-probe.invalid/") and "datasets/probe/probe" in u for u in seen)
except Exception as e:
    out["error"] = type(e).__name__ + ": " + str(e)
print("SIGHTLINE_PROBE " + json.dumps(out))
`;

export function parseProbe(out: string | null): { version: string | null; platform: boolean } | null {
  const line = (out ?? '').split('\n').find((l) => l.startsWith('SIGHTLINE_PROBE '));
  if (!line) return null;
  try {
    const v = JSON.parse(line.slice('SIGHTLINE_PROBE '.length)) as { version?: unknown; platform?: unknown };
    return { version: typeof v.version === 'string' ? v.version : null, platform: v.platform === true };
  } catch {
    return null;
  }
}

export async function probeUltralytics(python: string[]): Promise<{ version: string | null; platform: boolean } | null> {
  const [cmd, ...pre] = python;
  return parseProbe(await run(cmd!, [...pre, '-c', PROBE_PY], 120_000));
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

/** `python`: the interpreter to probe with (--python); default the one behind the `yolo` launcher. */
export async function detectSystem(yolo: string, python?: string | null): Promise<SystemInfo> {
  const interpreter = python ? [python] : pythonOf(yolo);
  const [smi, probe] = await Promise.all([
    run('nvidia-smi', ['--query-gpu=name,memory.total', '--format=csv,noheader,nounits']),
    interpreter ? probeUltralytics(interpreter) : null,
  ]);
  // No probe (a launcher that is no Python script): the version from the CLI itself; the hub decides by it.
  const version = probe?.version ?? parseYoloVersion(await run(yolo, ['version'], 120_000));
  const cpus = os.cpus();
  return {
    hostname: os.hostname(),
    gpus: smi ? parseNvidiaSmi(smi) : [],
    cpu: cpus[0]?.model.trim() ?? null,
    cpuCount: cpus.length,
    ultralyticsVersion: version,
    platformProtocol: probe?.version ? probe.platform : null,
  };
}
