import type { z } from 'zod';
import type { Dataset } from './datasets.js';
import { TRAINABLE_TASKS, type createModelBody, type Model } from './models.js';

/**
 * What the web train dialog sends to POST /v1/models (ADR 0021): the one definition the dialog uses
 * and the server's tests replay, so the cloud command is tested against the exact body. Families and
 * sizes are the dialog's choices; the task comes from the dataset.
 */
export const TRAIN_FAMILIES = ['yolo11', 'yolov8'] as const;
export const TRAIN_SIZES = ['n', 's', 'm', 'l', 'x'] as const;
export type TrainFamily = (typeof TRAIN_FAMILIES)[number];
export type TrainSize = (typeof TRAIN_SIZES)[number];

export interface TrainAdvancedArg {
  key: string;
  value: string;
}

/** The dialog's choices that make the body (its form holds more: the project step, the dataset). */
export interface TrainDialogChoice {
  name: string;
  source: 'architecture' | 'parent';
  family: TrainFamily;
  size: TrainSize;
  pretrained: boolean;
  epochs: number | string;
  imageSize: number | string;
  batchSize: number | string;
  patience: number | string;
  cache: 'off' | 'ram' | 'disk';
  device: string;
  /** Hours; empty for no limit. */
  time: number | string;
  advanced: TrainAdvancedArg[];
}

/** `yolo11n`, `yolov8s-seg`, `yolo11m-cls`: the ultralytics model name for a dataset's task. */
export function architectureId(family: TrainFamily, size: TrainSize, task: string | null | undefined): string {
  const suffix = Object.hasOwn(TRAINABLE_TASKS, task ?? 'detect') ? TRAINABLE_TASKS[(task ?? 'detect') as keyof typeof TRAINABLE_TASKS] : '';
  return `${family}${size}${suffix}`;
}

/** `true`/`false` → booleans, numbers → numbers, anything else stays text (as the yolo CLI reads it). */
export function parseArgValue(raw: string): string | number | boolean {
  const v = raw.trim();
  if (/^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  if (/^-?\d+(\.\d+)?(e-?\d+)?$/i.test(v)) return Number(v);
  return v;
}

/** The POST /v1/models body for the finished dialog. */
export function trainDialogBody(
  form: TrainDialogChoice,
  ctx: { projectId: string; dataset: Pick<Dataset, 'id' | 'task'>; parent: Pick<Model, 'id' | 'meta' | 'lineage'> | null },
): z.input<typeof createModelBody> {
  const arch = architectureId(form.family, form.size, ctx.dataset.task);
  const lineage =
    form.source === 'parent' && ctx.parent
      ? {
          architecture: {
            ...(ctx.parent.lineage.architecture.id ? { id: ctx.parent.lineage.architecture.id } : {}),
            ...(ctx.parent.lineage.architecture.name ? { name: ctx.parent.lineage.architecture.name } : {}),
          },
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
