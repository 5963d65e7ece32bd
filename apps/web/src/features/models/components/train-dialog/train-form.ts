import { MODEL_DEFAULTS, type Dataset, type Model } from '@sightline/contracts';
import type { CreateModelBody } from '../../api/create-model';

export const FAMILIES = ['yolo11', 'yolov8'] as const;
export const SIZES = ['n', 's', 'm', 'l', 'x'] as const;
export type Family = (typeof FAMILIES)[number];
export type Size = (typeof SIZES)[number];

export interface AdvancedArg {
  key: string;
  value: string;
}

export interface TrainForm {
  datasetId: string | null;
  projectMode: 'existing' | 'new';
  projectId: string | null;
  newProjectName: string;
  name: string;
  source: 'architecture' | 'parent';
  family: Family;
  size: Size;
  pretrained: boolean;
  parentId: string | null;
  epochs: number | string;
  imageSize: number | string;
  batchSize: number | string;
  patience: number | string;
  cache: 'off' | 'ram' | 'disk';
  device: string;
  /** Hours; empty for no limit. */
  time: number | string;
  advanced: AdvancedArg[];
}

export const initialForm = (projectId?: string): TrainForm => ({
  datasetId: null,
  projectMode: 'existing',
  projectId: projectId ?? null,
  newProjectName: '',
  name: '',
  source: 'architecture',
  family: 'yolo11',
  size: 'n',
  pretrained: true,
  parentId: null,
  epochs: MODEL_DEFAULTS.config.epochs,
  imageSize: MODEL_DEFAULTS.config.imageSize,
  batchSize: MODEL_DEFAULTS.config.batchSize,
  patience: MODEL_DEFAULTS.config.patience,
  cache: 'off',
  device: '',
  time: '',
  advanced: [],
});

const TASK_SUFFIX: Record<string, string> = { detect: '', segment: '-seg', classify: '-cls', pose: '-pose', obb: '-obb' };

/** `yolo11n`, `yolov8s-seg`, `yolo11m-cls`: the ultralytics model name for a dataset's task. */
export function architectureId(family: Family, size: Size, task: string | null | undefined): string {
  return `${family}${size}${TASK_SUFFIX[task ?? 'detect'] ?? ''}`;
}

/** Arguments the dialog sets itself: extras must not repeat or override them. */
export const RESERVED_ARGS = new Set(['model', 'data', 'project', 'name', 'epochs', 'imgsz', 'batch', 'patience', 'cache', 'device', 'time', 'resume', 'task', 'mode']);

/** Errors are translation keys under `dialog.errors`. */
export type FormErrors = Partial<Record<keyof TrainForm | `advanced.${number}`, string>>;

const isInt = (v: number | string, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

export function validateStep(step: number, form: TrainForm, ctx: { hasProjects: boolean }): FormErrors {
  const errors: FormErrors = {};
  if (step === 0 && !form.datasetId) errors.datasetId = 'dataset';
  if (step === 1) {
    const mode = ctx.hasProjects ? form.projectMode : 'new';
    if (mode === 'existing' && !form.projectId) errors.projectId = 'project';
    if (mode === 'new' && !form.newProjectName.trim()) errors.newProjectName = 'projectName';
    if (form.newProjectName.trim().length > 100) errors.newProjectName = 'tooLong';
    if (!form.name.trim()) errors.name = 'name';
    else if (form.name.trim().length > 100) errors.name = 'tooLong';
    if (form.source === 'parent' && !form.parentId) errors.parentId = 'parent';
  }
  if (step === 2) {
    if (!isInt(form.epochs, 1, 10000)) errors.epochs = 'epochs';
    if (!isInt(form.imageSize, 32, 8192)) errors.imageSize = 'imageSize';
    const b = form.batchSize;
    if (typeof b !== 'number' || !(b === -1 || (b > 0 && b <= 4096))) errors.batchSize = 'batchSize';
    if (!isInt(form.patience, 0, 10000)) errors.patience = 'patience';
    if (form.time !== '' && !(typeof form.time === 'number' && form.time > 0 && form.time <= 10000)) errors.time = 'time';
    if (!/^[\w:,.-]{0,64}$/.test(form.device.trim())) errors.device = 'device';
    const seen = new Set<string>();
    form.advanced.forEach((arg, i) => {
      const key = arg.key.trim();
      if (!/^[a-z_][a-z0-9_]*$/.test(key)) errors[`advanced.${i}`] = 'argKey';
      else if (RESERVED_ARGS.has(key)) errors[`advanced.${i}`] = 'argReserved';
      else if (seen.has(key)) errors[`advanced.${i}`] = 'argDuplicate';
      else if (!arg.value.trim()) errors[`advanced.${i}`] = 'argValue';
      seen.add(key);
    });
  }
  return errors;
}

/** `true`/`false` → booleans, numbers → numbers, anything else stays text (as the yolo CLI reads it). */
export function parseArgValue(raw: string): string | number | boolean {
  const v = raw.trim();
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  if (/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(v)) return Number(v);
  return v;
}

/** The POST /v1/models body for the finished form. */
export function createBody(form: TrainForm, ctx: { projectId: string; dataset: Pick<Dataset, 'id' | 'task'>; parent: Pick<Model, 'id' | 'meta' | 'lineage'> | null }): CreateModelBody {
  const arch = architectureId(form.family, form.size, ctx.dataset.task);
  const lineage =
    form.source === 'parent' && ctx.parent
      ? {
          architecture: { ...(ctx.parent.lineage.architecture.id ? { id: ctx.parent.lineage.architecture.id } : {}), ...(ctx.parent.lineage.architecture.name ? { name: ctx.parent.lineage.architecture.name } : {}) },
          parent: { id: ctx.parent.id, name: ctx.parent.meta.name },
        }
      : { architecture: { id: arch, name: `${arch}.yaml` }, ...(form.pretrained ? { parent: { name: `${arch}.pt` } } : {}) };
  const advanced = Object.fromEntries(form.advanced.map((a) => [a.key.trim(), parseArgValue(a.value)]));
  return {
    project: { id: ctx.projectId },
    meta: { name: form.name.trim() },
    dataset: { id: ctx.dataset.id },
    task: ctx.dataset.task,
    lineage,
    config: {
      epochs: Number(form.epochs),
      imageSize: Number(form.imageSize),
      batchSize: Number(form.batchSize),
      patience: Number(form.patience),
      cache: form.cache === 'off' ? null : form.cache,
      device: form.device.trim() || null,
      time: form.time === '' ? null : Number(form.time),
      ...(form.advanced.length ? { advanced } : {}),
    },
  };
}
