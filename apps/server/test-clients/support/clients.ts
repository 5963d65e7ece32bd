/**
 * Where the real ultralytics clients are (README "Test it", the client suite):
 *   1. SIGHTLINE_CLIENTS=DIR — a folder holding legacy/env.sh and/or platform/env.sh (built by
 *      shared/clients/setup.sh DIR);
 *   2. ../shared/clients/setup.sh beside the checkout — built into <repo>/.clients (idempotent: the
 *      suite's global setup runs it once, ~3 minutes the first time on a fresh machine);
 *   3. a pip-installed `yolo` on PATH of a known version (8.3.x → legacy, ≥ 8.4.115 → platform).
 * None of these: the suite skips with a printed reason — except under CI (env CI set), where a
 * missing generation fails the suite (global-setup.ts).
 *
 * For scenario files: clients() (what global setup found), clientHome() (a private config/datasets/
 * weights home per run), startClient() / runClient() (a shell line with the client's `yolo` and
 * $PY on PATH), withClient() (that shell line, for a process you spawn yourself).
 */
import { execFileSync, spawn, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type Generation = 'legacy' | 'platform';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../../../..');
export const SHARED_CLIENTS = path.resolve(REPO_ROOT, '../shared/clients');

export interface Client {
  generation: Generation;
  /** Shell prefix that puts this generation's `yolo` and Python on PATH (empty for a pip install on PATH). */
  envScript: string | null;
  /** ultralytics version the client reports. */
  version: string;
}

export interface Clients {
  legacy: Client | null;
  platform: Client | null;
  /** Why a generation is missing (printed by the suite). */
  reasons: string[];
}

function fromDir(dir: string): Clients {
  const out: Clients = { legacy: null, platform: null, reasons: [] };
  for (const generation of ['legacy', 'platform'] as const) {
    const env = path.join(dir, generation, 'env.sh');
    if (!fs.existsSync(env)) {
      out.reasons.push(`${generation}: no ${env}`);
      continue;
    }
    try {
      // The installed version from the package metadata (importing ultralytics loads torch: seconds);
      // the guard test runs `yolo version` for real.
      const version = execFileSync('bash', ['-c', `. ${env} && $PY -c 'import importlib.metadata as m; print(m.version("ultralytics"))'`], {
        encoding: 'utf8',
        timeout: 120_000,
      }).trim();
      out[generation] = { generation, envScript: env, version };
    } catch (err) {
      out.reasons.push(`${generation}: ${env} has no ultralytics package (${(err as Error).message.split('\n')[0]})`);
    }
  }
  return out;
}

function fromPath(): Clients {
  const out: Clients = { legacy: null, platform: null, reasons: [] };
  try {
    const version = execFileSync('yolo', ['version'], { encoding: 'utf8', timeout: 60_000 }).trim().split(/\s+/).pop() ?? '';
    const [maj, min, patch] = version.split('.').map(Number);
    const hubSdk = () => {
      try {
        execFileSync('python3', ['-c', 'import hub_sdk'], { stdio: 'ignore', timeout: 60_000 });
        return true;
      } catch {
        return false;
      }
    };
    if (maj === 8 && min === 3 && !hubSdk()) out.reasons.push(`yolo on PATH reports ${version} but hub-sdk is not importable (pip install hub-sdk)`);
    else if (maj === 8 && min === 3) out.legacy = { generation: 'legacy', envScript: null, version };
    else if (maj === 8 && (min > 4 || (min === 4 && patch >= 115))) out.platform = { generation: 'platform', envScript: null, version };
    else out.reasons.push(`yolo on PATH reports ${version}: not a known version (8.3.x or >= 8.4.115)`);
  } catch {
    out.reasons.push('no yolo on PATH');
  }
  return out;
}

/** Builds (when needed) and finds the clients. Call from the suite's global setup. */
export function locateClients(): Clients {
  const setting = process.env.SIGHTLINE_CLIENTS;
  if (setting) return fromDir(path.resolve(setting));
  const setup = path.join(SHARED_CLIENTS, 'setup.sh');
  if (fs.existsSync(setup)) {
    const dir = path.join(REPO_ROOT, '.clients');
    try {
      execFileSync('bash', [setup, dir], { stdio: 'inherit' });
    } catch (err) {
      // Not fatal here: what was built is used, the rest is a printed reason (a failure under CI).
      const found = fromDir(dir);
      found.reasons.unshift(`${setup} ${dir} failed: ${(err as Error).message.split('\n')[0]}`);
      return found;
    }
    return fromDir(dir);
  }
  const onPath = fromPath();
  onPath.reasons.unshift(`no SIGHTLINE_CLIENTS setting and no ${setup}`);
  return onPath;
}

/** The clients found by global setup (passed through the environment to test files). */
export function clients(): Clients {
  const raw = process.env.SIGHTLINE_CLIENTS_FOUND;
  if (!raw) return locateClients();
  return JSON.parse(raw) as Clients;
}

/**
 * A private home for one client run (or a scenario's runs): its own YOLO_CONFIG_DIR with offline
 * settings and fonts, and datasets/, weights/, runs/ inside it. The built clients share one config
 * folder (where `yolo login` saves the key), so scenarios that run at the same time on one machine
 * would otherwise log each other out; a fresh home is also what a fresh machine looks like (no
 * cached dataset or weights).
 */
export interface ClientHome {
  dir: string;
  configDir: string;
}

export function clientHome(label = 'client'): ClientHome {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `sl-${label}-`));
  const configDir = path.join(dir, 'config');
  const font = ['/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf'].find((f) => fs.existsSync(f));
  // 8.3.x reads YOLO_CONFIG_DIR itself, 8.4.x its Ultralytics/ subfolder: fill both (as setup.sh does).
  for (const c of [configDir, path.join(configDir, 'Ultralytics')]) {
    fs.mkdirSync(c, { recursive: true });
    if (font) for (const f of ['Arial.ttf', 'Arial.Unicode.ttf']) fs.copyFileSync(font, path.join(c, f));
    const settings = {
      settings_version: '0.0.6',
      datasets_dir: path.join(dir, 'datasets'),
      weights_dir: path.join(dir, 'weights'),
      runs_dir: path.join(dir, 'runs'),
      uuid: '0',
      sync: false,
      api_key: '',
      openai_api_key: '',
      clearml: false,
      comet: false,
      dvc: false,
      hub: true,
      mlflow: false,
      neptune: false,
      raytune: false,
      tensorboard: false,
      wandb: false,
      vscode_msg: false,
      openvino_msg: false,
    };
    fs.writeFileSync(path.join(c, 'settings.json'), JSON.stringify(settings));
  }
  for (const d of ['datasets', 'weights', 'runs']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  return { dir, configDir };
}

/** The newest file called `name` under `dir` (a run's weights/best.pt, a download in weights/), or null. */
export function newestFile(dir: string, name: string | RegExp): string | null {
  let found: { file: string; mtime: number } | null = null;
  const walk = (d: string) => {
    if (!fs.existsSync(d)) return;
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (typeof name === 'string' ? e.name === name : name.test(e.name)) {
        const mtime = fs.statSync(p).mtimeMs;
        if (!found || mtime > found.mtime) found = { file: p, mtime };
      }
    }
  };
  walk(dir);
  return (found as { file: string } | null)?.file ?? null;
}

/** A shell command line that runs `cmd` with the given generation's client on PATH (in `home`, when given). */
export function withClient(client: Client, cmd: string, home?: ClientHome): string {
  const env = client.envScript ? `. ${client.envScript} && ` : 'export YOLO_OFFLINE=true YOLO_AUTOINSTALL=false && ';
  const inHome = home ? `export YOLO_CONFIG_DIR=${JSON.stringify(home.configDir)} && cd ${JSON.stringify(home.dir)} && ` : '';
  return `${env}${inHome}${cmd}`;
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions extends SpawnOptions {
  /** Kills the run (SIGKILL) after this long. */
  timeoutMs?: number;
  /** Run in this private home (its YOLO_CONFIG_DIR, and cwd unless `cwd` is given). */
  home?: ClientHome;
  /** Called with the output (stdout and stderr) as it arrives. */
  onOutput?: (chunk: string) => void;
}

export interface RunningClient {
  pid: number;
  /** stdout + stderr so far. */
  output(): string;
  /** Signals the whole process group, as a terminal does on Ctrl-C (`SIGINT`). */
  signal(sig: NodeJS.Signals): void;
  done: Promise<RunResult>;
}

/**
 * Starts a shell command line with the client on PATH and returns at once. `options.env` is added
 * to this process's environment (set ULTRALYTICS_HUB_API, ULTRALYTICS_PLATFORM_URL, HTTP_LOG there).
 */
export function startClient(client: Client, cmd: string, options: RunOptions = {}): RunningClient {
  const { timeoutMs, home, onOutput, env, ...spawnOptions } = options;
  const child = spawn('bash', ['-c', withClient(client, cmd, home)], {
    ...spawnOptions,
    env: { ...process.env, ...env },
    // Its own process group: signal() reaches python under bash, like Ctrl-C in a terminal.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let all = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
    all += d.toString();
    onOutput?.(d.toString());
  });
  child.stderr?.on('data', (d: Buffer) => {
    stderr += d.toString();
    all += d.toString();
    onOutput?.(d.toString());
  });
  const signal = (sig: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, sig);
    } catch {
      /* already gone */
    }
  };
  const timer = timeoutMs ? setTimeout(() => signal('SIGKILL'), timeoutMs) : null;
  const done = new Promise<RunResult>((resolve) => {
    child.on('close', (code) => {
      if (timer) clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { pid: child.pid!, output: () => all, signal, done };
}

/** Runs a shell command line with the client on PATH; resolves when it exits (never rejects). */
export function runClient(client: Client, cmd: string, options: RunOptions = {}): Promise<RunResult> {
  return startClient(client, cmd, options).done;
}
