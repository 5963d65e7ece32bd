import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAIN_FAMILIES, TRAIN_SIZES, trainDialogBody, type Model, type TrainDialogChoice } from '@sightline/contracts';
import { cloudTrainArgs, trainWords } from '../src/modules/agents/cloud-training.command.js';
import { clients, withClient } from './support/clients.js';
import { generatedDataset, proUser, sharedToken, startCloudHub, startDocumentedAgent, waitFor, type CloudHub, type RunningAgent } from './support/cloud.js';

/**
 * Cloud training through the real agent (apps/agent, started with the documented command line)
 * and the real `yolo` of the platform generation (it reads `ul://` data), ADR 0021:
 * - every family × size × task × pretrained command the train dialog can make is checked by the
 *   CLI's own argument parser and model-name resolution, without training;
 * - one real run per task the dialog trains (detect, segment, classify, pose; imgsz 64, 1 epoch,
 *   24 + 8 generated images), pretrained once (weights from a local .pt made here), each ending
 *   with a finished model with weights;
 * - an agent running the legacy 8.3.166 client is never handed a run, and the pool says why.
 */

const found = clients();
const platform = found.platform;
const TASKS = { detect: '', segment: '-seg', classify: '-cls', pose: '-pose' } as const;
type Task = keyof typeof TASKS;

const choice = (over: Partial<TrainDialogChoice> = {}): TrainDialogChoice => ({
  name: 'run',
  source: 'architecture',
  family: 'yolo11',
  size: 'n',
  pretrained: false,
  epochs: 1,
  imageSize: 64,
  batchSize: 8,
  patience: 100,
  cache: 'off',
  device: '',
  time: '',
  // Advanced settings travel too: workers=0 keeps the 2-core machine from forking loaders.
  advanced: [
    { key: 'workers', value: '0' },
    { key: 'plots', value: 'false' },
  ],
  ...over,
});

/** Checks each `yolo` word list with ultralytics' own parser and cfg checks, and resolves its model file; one Python process. */
const CHECK_PY = `
import json, sys
from ultralytics.cfg import DEFAULT_CFG, DEFAULT_CFG_DICT, MODES, TASKS, check_dict_alignment, get_cfg, merge_equals_args, parse_key_value_pair
from ultralytics.nn.tasks import guess_model_task, yaml_model_load
from ultralytics.utils.downloads import GITHUB_ASSETS_NAMES
cases = json.load(open(sys.argv[1]))
if len(sys.argv) > 2:  # the pretrained weights the real runs start from (nothing can be downloaded here)
    from ultralytics import YOLO
    YOLO("yolov8n.yaml").save(sys.argv[2])
bad = []
for case in cases:
    words, want = case["words"], case["task"]
    try:
        assert words[0] in MODES, words[0]
        overrides = dict(parse_key_value_pair(a) for a in merge_equals_args(words[1:]))
        check_dict_alignment({**DEFAULT_CFG_DICT, **{k: None for k in TASKS}, **{k: None for k in MODES}}, overrides)
        get_cfg(DEFAULT_CFG, {**overrides, "mode": words[0]})
        model = overrides["model"]
        if model.endswith(".pt"):
            assert model in GITHUB_ASSETS_NAMES, f"{model} is no ultralytics weights name"
            model = model[:-3] + ".yaml"
        task = guess_model_task(yaml_model_load(model))
        assert task == want, f"{model} is a {task} model, wanted {want}"
    except BaseException as e:
        bad.append({"words": words, "error": f"{type(e).__name__}: {e}"})
print("CHECKED " + json.dumps({"checked": len(cases), "bad": bad}))
`;

describe.skipIf(!platform)('cloud training with the real agent and the real yolo (platform generation)', () => {
  let hub: CloudHub;
  let agent: RunningAgent | null = null;
  const started = Date.now();
  /** The agent's work folder; the parser check also writes weights/yolov8n.pt into it (one Python start less). */
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-cloud-agent-'));
  fs.mkdirSync(path.join(workDir, 'weights'));

  beforeAll(async () => {
    hub = await startCloudHub();
  });
  afterAll(async () => {
    await agent?.stop();
    await hub?.close();
    console.log(`[cloud-training] scenarios took ${((Date.now() - started) / 60_000).toFixed(2)} min`);
  });

  it(
    'every family × size × task × pretrained command the dialog makes passes the real CLI parser, and its model file resolves',
    { timeout: 180_000 },
    async () => {
      const cases: Array<{ words: string[]; task: Task }> = [];
      for (const task of Object.keys(TASKS) as Task[]) {
        for (const family of TRAIN_FAMILIES) {
          for (const size of TRAIN_SIZES) {
            for (const pretrained of [true, false]) {
              // What the server stores from the dialog's body (models.service: lineage → columns).
              const body = trainDialogBody(choice({ family, size, pretrained, time: 0.1 }), { projectId: 'p', dataset: { id: 'd', task }, parent: null });
              const model = {
                task: body.task ?? null,
                architectureId: body.lineage?.architecture?.id ?? null,
                architectureName: body.lineage?.architecture?.name ?? null,
                parentId: body.lineage?.parent?.id ?? null,
                parentName: body.lineage?.parent?.name ?? null,
                parentUrl: null,
                config: body.config as Record<string, unknown>,
              };
              const words = trainWords(
                cloudTrainArgs({
                  model,
                  datasetTask: task,
                  data: 'ul://ada/datasets/shapes',
                  epochs: 3,
                  hours: null,
                  project: 'ada/cloud',
                  name: 'run',
                  device: 'cpu',
                }),
              );
              cases.push({ words, task });
            }
          }
        }
      }
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'sl-cli-check-')), 'cases.json');
      fs.writeFileSync(file, JSON.stringify(cases));
      fs.writeFileSync(`${file}.py`, CHECK_PY);
      const out = execFileSync('bash', ['-c', withClient(platform!, `$PY ${file}.py ${file} ${path.join(workDir, 'weights', 'yolov8n.pt')}`)], {
        encoding: 'utf8',
        maxBuffer: 16 * 1024 * 1024,
      });
      const result = JSON.parse(
        out
          .split('\n')
          .find((l) => l.startsWith('CHECKED '))!
          .slice('CHECKED '.length),
      ) as { checked: number; bad: unknown[] };
      console.log(
        `[cloud-training] ${result.checked} commands (${TRAIN_FAMILIES.length} families × ${TRAIN_SIZES.length} sizes × ${Object.keys(TASKS).length} tasks × pretrained on/off) checked by the ultralytics ${platform!.version} parser`,
      );
      expect(result.bad).toEqual([]);
      expect(result.checked).toBe(TRAIN_FAMILIES.length * TRAIN_SIZES.length * Object.keys(TASKS).length * 2);
    },
  );

  it.skipIf(!found.legacy)(
    'an agent running the legacy 8.3.166 client registers, is never handed a ul:// run, and the pool says why',
    { timeout: 180_000 },
    async () => {
      const legacyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-legacy-agent-'));
      const legacy = startDocumentedAgent(found.legacy!, hub.s.origin, await sharedToken(hub, 'legacy-agent'), legacyDir);
      try {
        await waitFor('the legacy agent registered', async () => legacy.output().includes('registered as'), 120_000);
        expect(legacy.output()).toContain(`ultralytics ${found.legacy!.version} (Platform protocol: no)`);
        const user = await proUser(hub);
        const dataset = await generatedDataset(hub, found.legacy!, user.user.id, 'detect');
        // No other agent is online yet (the real runs below start theirs).
        const model = (
          await hub.api('POST', '/v1/models', user.cookie, trainDialogBody(choice({ name: 'waits' }), { projectId: user.project.id, dataset, parent: null }))
        ).json().data as Model;
        expect((await hub.api('POST', `/v1/models/${model.id}/cloud/train`, user.cookie, { gpuType: 'cpu', epochs: 1 })).statusCode).toBe(201);
        // New work wakes a long-polling agent at once: two seconds later the run is still queued.
        await new Promise((r) => setTimeout(r, 2_000));
        expect((await hub.api('GET', `/v1/models/${model.id}/cloud`, user.cookie)).json().data.job.status).toBe('queued');
        const pool = (await hub.api('GET', '/v1/agents?scope=all', hub.admin.cookie)).json().data as Array<{
          name: string;
          online: boolean;
          capabilities: { train: boolean; reason: string };
        }>;
        const shown = pool.find((a) => a.name === 'legacy-agent')!;
        expect(shown).toMatchObject({ online: true, capabilities: { train: false, export: true } });
        expect(shown.capabilities.reason).toContain(`ultralytics ${found.legacy!.version} cannot read ul:// datasets`);
        expect((await hub.api('GET', '/v1/gpu-types', user.cookie)).json().data.find((g: { id: string }) => g.id === 'cpu').online).toBe(0);
        await hub.api('POST', `/v1/models/${model.id}/cloud/stop`, user.cookie);
      } finally {
        await legacy.stop();
      }
    },
  );

  it(
    'one real run per task through the documented agent command: detect pretrained from a local .pt, segment, classify and pose from their yaml; each ends with weights',
    { timeout: 420_000 },
    async () => {
      const t0 = Date.now();
      // Pretrained weights cannot be downloaded here: the agent finds them in <work-dir>/weights (its default),
      // where the parser check saved YOLO('yolov8n.yaml') as yolov8n.pt.
      if (!fs.existsSync(path.join(workDir, 'weights', 'yolov8n.pt'))) {
        execFileSync(
          'bash',
          [
            '-c',
            withClient(platform!, `cd ${path.join(workDir, 'weights')} && $PY -c "from ultralytics import YOLO; YOLO('yolov8n.yaml').save('yolov8n.pt')"`),
          ],
          { stdio: 'ignore' },
        );
      }
      expect(fs.existsSync(path.join(workDir, 'weights', 'yolov8n.pt'))).toBe(true);
      agent = startDocumentedAgent(platform!, hub.s.origin, await sharedToken(hub, 'cpu-agent'), workDir);
      await waitFor('the agent registered', async () => agent!.output().includes('registered as'), 120_000);
      expect(agent.output()).toContain(`ultralytics ${platform!.version} (Platform protocol: yes), device type cpu`);

      const user = await proUser(hub);
      const runs: Array<{ task: Task; family: string; pretrained: boolean; model: Model }> = [];
      const plan: Array<{ task: Task; family: (typeof TRAIN_FAMILIES)[number]; pretrained: boolean }> = [
        { task: 'detect', family: 'yolov8', pretrained: true },
        { task: 'segment', family: 'yolo11', pretrained: false },
        { task: 'classify', family: 'yolov8', pretrained: false },
        { task: 'pose', family: 'yolo11', pretrained: false },
      ];
      for (const p of plan) {
        const dataset = await generatedDataset(hub, platform!, user.user.id, p.task);
        const body = trainDialogBody(choice({ name: `${p.task} run`, family: p.family, pretrained: p.pretrained }), {
          projectId: user.project.id,
          dataset,
          parent: null,
        });
        const created = await hub.api('POST', '/v1/models', user.cookie, body);
        expect(created.statusCode, created.body).toBe(201);
        const model = created.json().data as Model;
        const start = await hub.api('POST', `/v1/models/${model.id}/cloud/train`, user.cookie, { gpuType: 'cpu', epochs: 1 });
        expect(start.statusCode, start.body).toBe(201);
        runs.push({ ...p, model });
      }
      let epochs = 0;
      for (const run of runs) {
        const job = await waitFor(
          `the ${run.task} run`,
          async () => {
            const r = (await hub.api('GET', `/v1/models/${run.model.id}/cloud`, user.cookie)).json().data as {
              job: { id: string; status: string; error: string | null };
            } | null;
            return r && ['succeeded', 'failed', 'cancelled'].includes(r.job.status) ? r.job : null;
          },
          300_000,
        );
        const log = (await hub.api('GET', `/v1/agent-jobs/${job.id}/log`, hub.admin.cookie)).json().data.lines.join('');
        expect(job.status, `${run.task}: ${job.error}\n${log.slice(-3000)}`).toBe('succeeded');
        const arch = `${run.family}n${TASKS[run.task]}`;
        expect(log).toContain(`model=${arch}${run.pretrained ? '.pt' : '.yaml'}`);
        if (run.pretrained) expect(log).toContain(`[agent] pretrained weights ${arch}.pt from ${path.join(workDir, 'weights')}`);
        const model = (await hub.api('GET', `/v1/models/${run.model.id}`, user.cookie)).json().data as Model & {
          files: Array<{ kind: string; bytes: number }>;
        };
        expect(model.files.find((f) => f.kind === 'best')?.bytes ?? 0, `${run.task} has best weights`).toBeGreaterThan(10_000);
        expect(model.task).toBe(run.task);
        const metrics = (await hub.api('GET', `/v1/models/${run.model.id}/metrics`, user.cookie)).json().data as unknown[] | null;
        epochs += Array.isArray(metrics) ? metrics.length : 0;
      }
      const minutes = (Date.now() - t0) / 60_000;
      console.log(
        `[cloud-training] ${runs.length} real runs (${runs.map((r) => `${r.task} ${r.family}n${r.pretrained ? ' pretrained' : ''}`).join(', ')}), ${epochs} epochs reported, ${minutes.toFixed(2)} min`,
      );
    },
  );
});
