/**
 * Cloud training with the real agent and the real `yolo` (ADR 0021): a live hub with cloud training
 * on and a CPU device type (this machine has no GPU), tiny generated datasets of each task, and the
 * agent started with the command line the docs give (docs/deploy.md, apps/agent/README.md).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { datasets } from '../../src/platform/db/schema.js';
import { newId } from '../../src/platform/ids.js';
import { startLiveServer, type LiveServer } from '../../test/support/wire.js';
import { adminWithSharedToken, enableCloud, newToken, setPlanAndWallet } from '../../test/support/agents.js';
import { buildUser } from '../../test/support/factories.js';
import { REPO_ROOT, withClient, type Client } from './clients.js';

export interface CloudHub {
  s: LiveServer;
  admin: { cookie: string };
  api(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie: string, payload?: object): Promise<{ statusCode: number; body: string; json(): any }>;
  close(): Promise<void>;
}

/** A live hub: cloud training on, one CPU device type ("cpu", any CPU) an admin enabled. */
export async function startCloudHub(): Promise<CloudHub> {
  const s = await startLiveServer({ AGENT_LEASE_SECONDS: '60' });
  const { admin } = await adminWithSharedToken(s.t);
  const api: CloudHub['api'] = (method, url, cookie, payload) => s.t.app.inject({ method, url, headers: { cookie }, ...(payload ? { payload } : {}) });
  const cpu = await api('PUT', '/v1/admin/gpu-types', admin.cookie, {
    id: 'cpu',
    name: 'CPU',
    device: 'cpu',
    match: '*',
    hourlyRateMicro: 360_000,
    imagesPerSecond: 20,
  });
  if (cpu.statusCode !== 200) throw new Error(`cpu type: ${cpu.statusCode} ${cpu.body}`);
  await enableCloud(s.t);
  return { s, admin, api, close: () => s.close() };
}

export async function sharedToken(hub: CloudHub, name: string) {
  return (await newToken(hub.s.t, hub.admin.cookie, name, true)).token;
}

export async function proUser(hub: CloudHub) {
  const user = await buildUser(hub.s.t.app);
  await setPlanAndWallet(hub.s.t, user.user.id, 'pro', 100_000_000);
  const project = (await hub.api('POST', '/v1/projects', user.cookie, { name: 'Cloud' })).json().data as { id: string; slug: string };
  return { ...user, project };
}

/** Writes a tiny dataset zip in the HUB layout (squares and circles on grey; pose: the 4 corners as keypoints). */
const GENERATE_PY = `
import io, math, random, sys, zipfile
from PIL import Image, ImageDraw
out, task, n_train, n_val, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
rnd = random.Random(7)
COLORS = [(220, 40, 40), (40, 180, 60)]
NAMES = ['square', 'circle']
def points(kind, cx, cy, r):
    if kind == 0:
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    return [(cx + r * math.cos(2 * math.pi * i / 16), cy + r * math.sin(2 * math.pi * i / 16)) for i in range(16)]
def image(objs):
    im = Image.new('RGB', (size, size), (rnd.randint(90, 160),) * 3)
    d = ImageDraw.Draw(im)
    for kind, cx, cy, r in objs:
        d.polygon(points(kind, cx, cy, r), fill=COLORS[kind])
    buf = io.BytesIO(); im.save(buf, 'JPEG', quality=90); return buf.getvalue()
def objects(n):
    objs = []
    for i in range(n):
        r = rnd.uniform(0.14, 0.22) * size
        objs.append((rnd.randint(0, 1), (i + 0.5) * size / n + rnd.uniform(-3, 3), rnd.uniform(r + 2, size - r - 2), r))
    return objs
root = 'gen-' + task
with zipfile.ZipFile(out, 'w') as z:
    if task == 'classify':
        for split, n in (('train', n_train), ('val', n_val)):
            for k in range(n):
                z.writestr(f'{root}/{split}/{NAMES[k % 2]}/{split}_{k:03d}.jpg', image([(k % 2, size / 2, size / 2, size * 0.3)]))
    else:
        z.writestr(f'{root}/data.yaml', 'train: images/train\\nval: images/val\\n\\nnames:\\n  0: square\\n  1: circle\\n' + ('kpt_shape: [4, 3]\\n' if task == 'pose' else ''))
        for split, n in (('train', n_train), ('val', n_val)):
            for k in range(n):
                objs = objects(1 if task == 'pose' else 2)
                z.writestr(f'{root}/images/{split}/{split}_{k:03d}.jpg', image(objs))
                rows = []
                for kind, cx, cy, r in objs:
                    box = f'{kind} {cx / size:.5f} {cy / size:.5f} {2 * r / size:.5f} {2 * r / size:.5f}'
                    if task == 'detect':
                        rows.append(box)
                    elif task == 'segment':
                        rows.append(f'{kind} ' + ' '.join(f'{x / size:.5f} {y / size:.5f}' for x, y in points(kind, cx, cy, r)))
                    else:
                        corners = [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
                        rows.append(box + ' ' + ' '.join(f'{x / size:.5f} {y / size:.5f} 2' for x, y in corners))
                z.writestr(f'{root}/labels/{split}/{split}_{k:03d}.txt', '\\n'.join(rows) + '\\n')
`;

/** A processed dataset of `task` (24 train + 8 val images of 96 px) owned by `userId`, through the real processing job. */
export async function generatedDataset(hub: CloudHub, client: Client, userId: string, task: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-cloud-ds-'));
  const zip = path.join(dir, `${task}.zip`);
  fs.writeFileSync(path.join(dir, 'gen.py'), GENERATE_PY);
  execFileSync('bash', ['-c', withClient(client, `$PY ${path.join(dir, 'gen.py')} ${zip} ${task} 24 8 96`)]);
  const id = newId();
  const slug = `gen-${task}`;
  const storageKey = `users/${userId}/datasets/${id}/${task}.zip`;
  const content = fs.readFileSync(zip);
  fs.rmSync(dir, { recursive: true, force: true });
  const t = hub.s.t;
  await t.app.ctx.blobs.put(storageKey, content);
  const now = t.clock.now();
  await t.database.db.insert(datasets).values({
    id,
    userId,
    slug,
    name: slug,
    task,
    status: 'Loading',
    storageKey,
    filename: `${task}.zip`,
    bytes: content.length,
    createdAt: now,
    updatedAt: now,
    uploadedAt: now,
  });
  await t.app.ctx.jobs.enqueue('dataset.process', { datasetId: id }, { dedupeKey: `dataset:${id}` });
  await t.app.ctx.jobs.drain();
  return { id, slug, task };
}

/** The command line the docs give for starting an agent; both documents must give the same one. */
export function documentedAgentCommand(): string {
  const line = (file: string) => {
    const text = fs.readFileSync(path.join(REPO_ROOT, file), 'utf8');
    const m = /^node apps\/agent\/bin\/sightline-agent\.mjs --hub .*$/m.exec(text);
    if (!m) throw new Error(`${file} gives no agent command line`);
    return m[0].trim();
  };
  const deploy = line('docs/deploy.md');
  const readme = line('apps/agent/README.md');
  if (deploy !== readme) throw new Error(`docs/deploy.md and apps/agent/README.md give different agent commands:\n${deploy}\n${readme}`);
  return deploy;
}

export interface RunningAgent {
  child: ChildProcess;
  workDir: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts the agent with the documented command, the hub, token and work folder put in, the client on PATH. */
export function startDocumentedAgent(client: Client, hubOrigin: string, token: string, workDir: string): RunningAgent {
  const documented = documentedAgentCommand();
  const cmd = documented.replace('https://sightline.example.com', hubOrigin).replace('sla_...', token).replace('/var/lib/sightline-agent', workDir);
  if (!cmd.includes(hubOrigin) || !cmd.includes(token) || !cmd.includes(workDir))
    throw new Error(`the documented command has no placeholders to fill: ${documented}`);
  let out = '';
  const child = spawn('bash', ['-c', `${withClient(client, `exec ${cmd}`)}`], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    workDir,
    output: () => out,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    },
  };
}

export async function waitFor<T>(what: string, fn: () => Promise<T | null | undefined | false>, timeoutMs: number, everyMs = 500): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
