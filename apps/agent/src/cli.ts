import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AGENT_VERSION, SightlineAgent } from './agent.js';

const usage = `sightline-agent ${AGENT_VERSION}: runs Sightline cloud training and export jobs on this host

  npx @sightline/agent --hub https://sightline.example.com --token sla_...

  --hub URL        the Sightline server (env SIGHTLINE_HUB)
  --token TOKEN    an agent token from the admin page or Settings (env SIGHTLINE_AGENT_TOKEN)
  --yolo PATH      the ultralytics CLI (env SIGHTLINE_YOLO, default: yolo on PATH)
  --python PATH    the Python of that ultralytics, for the Platform-protocol probe (env SIGHTLINE_PYTHON,
                   default: the interpreter named on the first line of the yolo launcher)
  --work-dir DIR   job folders and state (env SIGHTLINE_WORK_DIR, default ~/.sightline-agent)
  --weights-dir DIR  pretrained weights (yolo11n.pt, ...) for runs that start from them
                   (env SIGHTLINE_WEIGHTS_DIR, default <work-dir>/weights)
  --jobs N         jobs at once (default 1)
`;

const { values } = parseArgs({
  options: {
    hub: { type: 'string' },
    token: { type: 'string' },
    yolo: { type: 'string' },
    python: { type: 'string' },
    'work-dir': { type: 'string' },
    'weights-dir': { type: 'string' },
    jobs: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
const hub = values.hub ?? process.env.SIGHTLINE_HUB;
const token = values.token ?? process.env.SIGHTLINE_AGENT_TOKEN;
if (values.help || !hub || !token) {
  process.stdout.write(usage);
  process.exit(values.help ? 0 : 2);
}
const log = (line: string) => process.stdout.write(`${new Date().toISOString()} ${line}\n`);
const workDir = path.resolve(values['work-dir'] ?? process.env.SIGHTLINE_WORK_DIR ?? path.join(os.homedir(), '.sightline-agent'));
const agent = new SightlineAgent({
  hub,
  token,
  yolo: values.yolo ?? process.env.SIGHTLINE_YOLO ?? 'yolo',
  python: values.python ?? process.env.SIGHTLINE_PYTHON ?? null,
  workDir,
  weightsDir: path.resolve(values['weights-dir'] ?? process.env.SIGHTLINE_WEIGHTS_DIR ?? path.join(workDir, 'weights')),
  maxJobs: Math.max(1, Number(values.jobs ?? 1) || 1),
  claimWaitMs: 25_000,
  log,
});
let stopping = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (stopping) return;
    stopping = true;
    log(`${sig}: stopping (running jobs are reported as failed)`);
    void agent.stop().then(() => process.exit(0));
  });
}
agent.start().catch((err: unknown) => {
  log(`could not start: ${(err as Error).message}`);
  process.exit(1);
});
