import { TRAINABLE_TASKS, isTrainableTask, untrainableReason, type DeviceKind } from '@sightline/contracts';

/**
 * The `yolo train` words of a cloud run, from what the train dialog stored on the model (ADR 0021).
 * Pure: cloud-training.service resolves the rows, this decides the command; the client suite checks
 * every combination the dialog offers against the real CLI's own argument parser.
 *
 * What the dialog stores and what the agent runs:
 * - from an architecture, not pretrained: `architecture {id: 'yolov8n', name: 'yolov8n.yaml'}` →
 *   `model=yolov8n.yaml` (built from the yaml, random weights);
 * - pretrained: the same plus `parent {name: 'yolov8n.pt'}` → `model=yolov8n.pt`, which the agent
 *   takes from its weights folder (`--weights-dir`, apps/agent/README.md) or ultralytics from its
 *   own weights_dir or the internet;
 * - from one of my models: `parent {id, name}` → `model=ul://owner/project/model`, the parent's best
 *   weights over the Platform protocol with the run's own key (so the run's owner must be able to read it);
 * - the config: epochs (the estimate's), imgsz, batch, patience, cache, time, and the advanced
 *   arguments; the dialog's reserved keys always come from the dialog, never from advanced.
 */

export class CommandError extends Error {
  constructor(
    message: string,
    readonly kind: 'task' | 'model',
  ) {
    super(message);
  }
}

export interface CloudModelLineage {
  task: string | null;
  architectureId: string | null;
  architectureName: string | null;
  parentId: string | null;
  parentName: string | null;
  parentUrl: string | null;
  config: Record<string, unknown>;
}

/** A model file name as the CLI takes it: a bare name, no folders, no options. */
const FILE_NAME = /^[A-Za-z0-9][\w.-]{0,199}$/;
const WEIGHTS = /\.pt$/i;
const YAML = /\.ya?ml$/i;
/** Keys the run sets itself (as the dialog's RESERVED_ARGS, plus what the agent relies on). */
const RESERVED = new Set([
  'model',
  'data',
  'project',
  'name',
  'epochs',
  'imgsz',
  'batch',
  'patience',
  'cache',
  'device',
  'time',
  'resume',
  'task',
  'mode',
  'exist_ok',
]);

/** The task a conventional ultralytics name is for (`yolo11n-seg.yaml` → segment), or null for other names. */
export function taskOfModelName(name: string): string | null {
  const m = /^yolo(?:v?\d+)[a-z]?(?:-(seg|cls|pose|obb))?(?:\.(?:pt|ya?ml))?$/i.exec(name);
  if (!m) return null;
  const suffix = m[1] ? `-${m[1].toLowerCase()}` : '';
  return Object.entries(TRAINABLE_TASKS).find(([, s]) => s === suffix)?.[0] ?? null;
}

const baseName = (name: string) => name.split(/[\\/]/).pop() ?? name;

/**
 * The `model=` of the run. `explicit` is the cloud request's own `model` (a file name); `parentUri`
 * the parent model's `ul://` when the model starts from one of the owner's models.
 */
export function cloudModelArg(model: CloudModelLineage, opts: { explicit?: string | null; parentUri?: string | null } = {}): string {
  if (opts.explicit) {
    if (!FILE_NAME.test(opts.explicit) || !(WEIGHTS.test(opts.explicit) || YAML.test(opts.explicit)))
      throw new CommandError(`model must be a model file name such as yolo11n.pt or yolo11n.yaml, not "${opts.explicit}"`, 'model');
    return opts.explicit;
  }
  if (model.parentId) {
    if (!opts.parentUri) throw new CommandError('The parent model is not available to start from', 'model');
    return opts.parentUri;
  }
  // Pretrained: the dialog stores the weights as the parent's name (a legacy client may store a path).
  const parent = model.parentName ? baseName(model.parentName.trim()) : '';
  if (parent && WEIGHTS.test(parent)) {
    if (!FILE_NAME.test(parent)) throw new CommandError(`The pretrained weights "${parent}" are not a model file name`, 'model');
    return parent;
  }
  const arch = baseName((model.architectureName ?? model.architectureId ?? '').trim());
  if (!arch) throw new CommandError('This model names no architecture and no parent model: choose one before training in the cloud', 'model');
  // Bare names (`yolo11n`, what older clients and the API store) mean the architecture's yaml.
  const file = YAML.test(arch) || WEIGHTS.test(arch) ? arch : `${arch}.yaml`;
  if (!FILE_NAME.test(file)) throw new CommandError(`The architecture "${arch}" is not a model file name`, 'model');
  return file;
}

/** CLI text of one value: booleans as Python spells them, lists and objects as Python literals. */
export function cliValue(v: unknown): string {
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'object')
    return JSON.stringify(v)
      .replace(/\btrue\b/g, 'True')
      .replace(/\bfalse\b/g, 'False')
      .replace(/\bnull\b/g, 'None');
  return String(v);
}

export interface CloudArgsInput {
  model: CloudModelLineage;
  /** the dataset's task (what is trained) */
  datasetTask: string | null;
  data: string;
  epochs: number;
  /** timed runs: hours */
  hours: number | null;
  project: string;
  name: string;
  /** the job's device type: a CPU type runs `device=cpu` */
  device: DeviceKind;
  explicitModel?: string | null;
  parentUri?: string | null;
}

/** The run's arguments (`key → value`), advanced first so the dialog's own settings win. */
export function cloudTrainArgs(input: CloudArgsInput): Record<string, unknown> {
  for (const task of [input.datasetTask, input.model.task]) {
    const why = untrainableReason(task);
    if (why) throw new CommandError(why, 'task');
  }
  const model = cloudModelArg(input.model, { explicit: input.explicitModel, parentUri: input.parentUri });
  const modelTask = model.startsWith('ul://') ? null : taskOfModelName(model);
  if (modelTask && isTrainableTask(input.datasetTask) && modelTask !== input.datasetTask) {
    throw new CommandError(
      `${model} is a ${modelTask} model but the dataset is a ${input.datasetTask} dataset: pick a ${input.datasetTask} architecture`,
      'model',
    );
  }
  const cfg = input.model.config as {
    imageSize?: number;
    batchSize?: number;
    patience?: number;
    cache?: boolean | 'ram' | 'disk' | null;
    time?: number | null;
    advanced?: Record<string, unknown>;
  };
  const advanced = Object.fromEntries(Object.entries(cfg.advanced ?? {}).filter(([k, v]) => !RESERVED.has(k) && v !== undefined));
  const time = input.hours ?? (cfg.time ? cfg.time : null);
  return {
    ...advanced,
    model,
    data: input.data,
    epochs: input.epochs,
    ...(time ? { time } : {}),
    imgsz: cfg.imageSize ?? 640,
    ...(cfg.batchSize !== undefined && cfg.batchSize !== null ? { batch: cfg.batchSize } : {}),
    ...(cfg.patience !== undefined && cfg.patience !== null ? { patience: cfg.patience } : {}),
    ...(cfg.cache ? { cache: cfg.cache } : {}),
    ...(input.device === 'cpu' ? { device: 'cpu' } : {}),
    project: input.project,
    name: input.name,
  };
}

/** `yolo` words: `train key=value …`. */
export function trainWords(args: Record<string, unknown>): string[] {
  return ['train', ...Object.entries(args).map(([k, v]) => `${k}=${cliValue(v)}`)];
}
