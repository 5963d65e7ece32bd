import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ClaimedJob } from '@sightline/contracts';
import { HubClient, HubError } from './hub-client.js';
import { detectSystem } from './system.js';

export const AGENT_VERSION = '0.1.0';

export interface AgentOptions {
  hub: string;
  token: string;
  /** the ultralytics CLI (default `yolo` on PATH) */
  yolo: string;
  /** the Python to probe ultralytics with (default: the one behind the `yolo` launcher) */
  python?: string | null;
  /**
   * Pretrained weights a run names by file (`model=yolov8n.pt`) are taken from here when present
   * (default <workDir>/weights): a host that cannot download keeps them here (ADR 0021).
   */
  weightsDir?: string;
  /** jobs run in <workDir>/jobs/<id>; <workDir>/state.json lists jobs started and not reported */
  workDir: string;
  /** jobs at once (one per GPU is the usual) */
  maxJobs: number;
  claimWaitMs: number;
  log: (line: string) => void;
}

interface Running {
  job: ClaimedJob;
  child: ChildProcess | null;
  /** why we signalled the child: a stop from the hub, or the job was taken away */
  stopping: 'cancel' | 'lost' | 'shutdown' | null;
  done: Promise<void>;
}

const KILL_GRACE_MS = 10_000;
const LOG_FLUSH_MS = 500;
const MAX_CHUNK = 256 * 1024;

/**
 * The GPU host's side: registers, heartbeats, long-polls for jobs and runs `yolo` for each as a
 * child process. Pull only: the hub never connects here. Jobs started and not yet reported are kept
 * in a state file, so after a crash or kill -9 the next start tells the hub which jobs were lost.
 */
export class SightlineAgent {
  private readonly hub: HubClient;
  private readonly running = new Map<string, Running>();
  private stopped = false;
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private claimAbort: AbortController | null = null;
  private loop: Promise<void> | null = null;
  private wakeLoop: (() => void) | null = null;
  heartbeatMs = 10_000;

  constructor(private readonly opts: AgentOptions) {
    this.hub = new HubClient(opts.hub.replace(/\/+$/, ''), opts.token);
  }

  private get stateFile() {
    return path.join(this.opts.workDir, 'state.json');
  }
  private readState(): string[] {
    try {
      return (JSON.parse(fs.readFileSync(this.stateFile, 'utf8')) as { jobs?: string[] }).jobs ?? [];
    } catch {
      return [];
    }
  }
  private writeState() {
    fs.mkdirSync(this.opts.workDir, { recursive: true });
    const tmp = `${this.stateFile}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify({ jobs: [...this.running.keys()] }));
    fs.renameSync(tmp, this.stateFile);
  }

  async start() {
    fs.mkdirSync(this.opts.workDir, { recursive: true });
    const info = await detectSystem(this.opts.yolo, this.opts.python);
    const unfinished = this.readState();
    const reg = await this.hub.register({ ...info, agentVersion: AGENT_VERSION, unfinished });
    this.heartbeatMs = reg.heartbeatMs;
    this.writeState();
    const gpu = info.gpus[0] ? `${info.gpus[0].name} (${info.gpus[0].memoryMb} MiB)${info.gpus.length > 1 ? ` × ${info.gpus.length}` : ''}` : 'no GPU';
    const platform = info.platformProtocol === null ? 'not probed' : info.platformProtocol ? 'yes' : 'no';
    this.opts.log(
      `registered as "${reg.name}" on ${this.opts.hub}: ${gpu}, ultralytics ${info.ultralyticsVersion ?? 'not found'} (Platform protocol: ${platform})${reg.gpuType ? `, device type ${reg.gpuType}` : ''}`,
    );
    for (const r of reg.recovered) this.opts.log(`job ${r.id} was unfinished when the agent last stopped: now ${r.status}`);
    this.heartbeatTimer = setInterval(() => void this.beat(), this.heartbeatMs);
    this.loop = this.claimLoop();
  }

  /** Stops claiming; running children are signalled and their jobs reported as failed. */
  async stop() {
    this.stopped = true;
    this.claimAbort?.abort();
    this.wakeLoop?.();
    for (const r of this.running.values()) this.signal(r, 'shutdown');
    await Promise.all([...this.running.values()].map((r) => r.done));
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    await this.loop?.catch(() => undefined);
  }

  private async beat() {
    try {
      const res = await this.hub.heartbeat([...this.running.keys()]);
      for (const id of res.cancel) {
        const r = this.running.get(id);
        if (r) this.signal(r, 'cancel');
      }
      for (const id of res.unknown) {
        const r = this.running.get(id);
        if (r) this.signal(r, 'lost');
      }
    } catch (err) {
      this.onHubError(err, 'heartbeat');
    }
  }

  private onHubError(err: unknown, what: string) {
    if (err instanceof HubError && err.status === 401) {
      this.opts.log(`the hub refused this agent's token (${err.message}): stopping`);
      void this.stop();
      return;
    }
    this.opts.log(`${what} failed: ${(err as Error).message}`);
  }

  private async claimLoop() {
    while (!this.stopped) {
      if (this.running.size >= this.opts.maxJobs) {
        await new Promise<void>((resolve) => (this.wakeLoop = resolve));
        continue;
      }
      try {
        this.claimAbort = new AbortController();
        const job = await this.hub.claim(this.opts.claimWaitMs, this.claimAbort.signal);
        if (job && !this.stopped) this.launch(job);
      } catch (err) {
        if (this.stopped) break;
        this.onHubError(err, 'claim');
        await new Promise((r) => setTimeout(r, 2000));
      }
    }
  }

  private launch(job: ClaimedJob) {
    const entry: Running = { job, child: null, stopping: null, done: Promise.resolve() };
    this.running.set(job.id, entry);
    this.writeState();
    entry.done = this.runJob(entry)
      .catch((err: unknown) => this.opts.log(`job ${job.id}: ${(err as Error).message}`))
      .finally(() => {
        this.running.delete(job.id);
        this.writeState();
        this.wakeLoop?.();
      });
  }

  private signal(r: Running, why: NonNullable<Running['stopping']>) {
    if (r.stopping) return;
    r.stopping = why;
    this.opts.log(
      `job ${r.job.id}: ${why === 'cancel' ? 'stop requested by the hub' : why === 'lost' ? 'the hub handed this job to another agent' : 'agent shutting down'}, signalling yolo`,
    );
    const child = r.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    setTimeout(() => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }, KILL_GRACE_MS).unref();
  }

  private async runJob(r: Running) {
    const { job } = r;
    const dir = path.join(this.opts.workDir, 'jobs', job.id);
    fs.mkdirSync(dir, { recursive: true });
    this.opts.log(`job ${job.id}: ${job.kind} → yolo ${job.args.join(' ')}`);
    let seq = 0;
    let pending = '';
    let flushing: Promise<void> = Promise.resolve();
    const flush = () => {
      if (!pending) return flushing;
      const content = pending.slice(0, MAX_CHUNK);
      pending = pending.slice(content.length);
      const n = seq++;
      flushing = flushing.then(async () => {
        try {
          const ack = await this.hub.log(job.id, n, content);
          if (ack.cancel) this.signal(r, 'cancel');
        } catch (err) {
          if (err instanceof HubError && err.status === 409) this.signal(r, 'lost');
          else this.onHubError(err, `log of job ${job.id}`);
        }
      });
      return flushing;
    };
    const say = (line: string) => {
      pending += `${line}\n`;
    };
    try {
      for (const input of job.inputs) await this.hub.download(input.url, path.join(dir, input.name));
      if (job.kind === 'train') this.linkWeights(job, dir, say);
      await this.hub.start(job.id);
    } catch (err) {
      say(`[agent] could not prepare the job: ${(err as Error).message}`);
      await flush();
      if (!(err instanceof HubError && err.status === 409))
        await this.hub.finish(job.id, { status: 'failed', error: `The agent could not prepare the job: ${(err as Error).message}` }).catch(() => undefined);
      return;
    }
    const timer = setInterval(() => void flush(), LOG_FLUSH_MS);
    const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null; error?: Error }>((resolve) => {
      const child = spawn(this.opts.yolo, job.args, { cwd: dir, env: { ...process.env, ...job.env }, stdio: ['ignore', 'pipe', 'pipe'] });
      r.child = child;
      if (r.stopping) child.kill('SIGTERM');
      const onData = (b: Buffer) => {
        // tqdm redraws with \r: keep the last state of each line.
        pending += b.toString('utf8').replace(/[^\n]*\r(?!\n)/g, '');
      };
      child.stdout.on('data', onData);
      child.stderr.on('data', onData);
      child.once('error', (error) => resolve({ code: null, signal: null, error }));
      child.once('close', (code, signal) => resolve({ code, signal }));
    });
    clearInterval(timer);
    if (r.stopping === 'lost') {
      await flush();
      return;
    }
    let status: 'succeeded' | 'failed' | 'cancelled' = exit.code === 0 ? 'succeeded' : 'failed';
    let error: string | null = exit.error ? `could not run ${this.opts.yolo}: ${exit.error.message}` : null;
    if (r.stopping === 'cancel') status = 'cancelled';
    if (r.stopping === 'shutdown') {
      status = 'failed';
      error = 'The agent was shut down during the job';
    }
    if (status === 'succeeded' && job.artifact) {
      try {
        await this.uploadArtifact(job, dir, say);
      } catch (err) {
        status = 'failed';
        error = `Upload of ${job.artifact} failed: ${(err as Error).message}`;
      }
    }
    say(`[agent] yolo ${exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`}; job ${status}`);
    await flush();
    while (pending) await flush();
    await flushing;
    await this.hub
      .finish(job.id, { status, exitCode: exit.code, signal: exit.signal, error })
      .catch((err: unknown) => this.onHubError(err, `finish of job ${job.id}`));
    this.opts.log(`job ${job.id}: ${status}`);
    fs.rmSync(dir, { recursive: true, force: true });
  }

  /** A run's `model=<name>.pt` from the weights folder, linked into the job folder (ultralytics looks there first). */
  private linkWeights(job: ClaimedJob, dir: string, say: (l: string) => void) {
    const name = job.args.find((a) => a.startsWith('model='))?.slice('model='.length) ?? '';
    if (!/^[\w.-]+\.pt$/i.test(name)) return;
    const weightsDir = this.opts.weightsDir ?? path.join(this.opts.workDir, 'weights');
    const source = path.resolve(weightsDir, name);
    if (fs.existsSync(source)) {
      fs.symlinkSync(source, path.join(dir, name));
      say(`[agent] pretrained weights ${name} from ${weightsDir}`);
    } else say(`[agent] ${name} is not in ${weightsDir}: ultralytics looks in its own weights_dir, then downloads it`);
  }

  /** A file is uploaded as is; a folder (saved_model, openvino, ...) as a .tar.gz of it. */
  private async uploadArtifact(job: ClaimedJob, dir: string, say: (l: string) => void) {
    const target = path.join(dir, job.artifact!);
    if (!fs.existsSync(target)) {
      // The job ends as failed at the hub, which says which file was missing.
      say(`[agent] yolo did not write ${job.artifact}`);
      return;
    }
    let file = target;
    let name = job.artifact!;
    if (fs.statSync(target).isDirectory()) {
      name = `${job.artifact}.tar.gz`;
      file = path.join(dir, name);
      await new Promise<void>((resolve, reject) => {
        const tar = spawn('tar', ['-czf', file, '-C', dir, job.artifact!], { stdio: 'ignore' });
        tar.once('error', reject);
        tar.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`tar exited with ${code}`))));
      });
    }
    say(`[agent] uploading ${name} (${fs.statSync(file).size} bytes)`);
    await this.hub.upload(job.id, file, name);
  }
}
