import {
  MODEL_DEFAULTS,
  TRAIN_FAMILIES,
  untrainableReason,
  TRAIN_SIZES,
  trainDialogBody,
  type TrainAdvancedArg,
  type TrainDialogChoice,
  type TrainFamily,
  type TrainSize,
} from '@sightline/contracts';

// The body the dialog sends is defined in contracts (train-dialog.ts), so the server's tests replay it exactly.
export { architectureId, parseArgValue } from '@sightline/contracts';
export const FAMILIES = TRAIN_FAMILIES;
export const SIZES = TRAIN_SIZES;
export type Family = TrainFamily;
export type Size = TrainSize;
export type AdvancedArg = TrainAdvancedArg;

export interface TrainForm extends TrainDialogChoice {
  datasetId: string | null;
  projectMode: 'existing' | 'new';
  projectId: string | null;
  newProjectName: string;
  parentId: string | null;
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

/** Arguments the dialog sets itself: extras must not repeat or override them. */
export const RESERVED_ARGS = new Set([
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
]);

/** Errors are translation keys under `dialog.errors`. */
export type FormErrors = Partial<Record<keyof TrainForm | `advanced.${number}`, string>>;

const isInt = (v: number | string, min: number, max: number) => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** `datasetTask`: the chosen dataset's task; one ultralytics cannot train (semantic-segment) is refused here, never sent as detect. */
export function validateStep(step: number, form: TrainForm, ctx: { hasProjects: boolean; datasetTask?: string | null }): FormErrors {
  const errors: FormErrors = {};
  if (step === 0 && !form.datasetId) errors.datasetId = 'dataset';
  else if (step === 0 && untrainableReason(ctx.datasetTask)) errors.datasetId = 'untrainable';
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

/** The POST /v1/models body for the finished form. */
export const createBody = trainDialogBody;
