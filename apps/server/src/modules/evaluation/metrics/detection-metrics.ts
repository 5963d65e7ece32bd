import type { DetectionEvalResult } from '@sightline/contracts';
import { PredictionColumns } from './accumulator.js';
import { apPerClass } from './ap.js';
import { boxIou, keypointOks, maskIou, probIou, type Box, type PairMatrix, type RotatedBox } from './iou.js';
import { CONFUSION_CONF, CONFUSION_IOU, confusionMatch, IOU_THRESHOLDS, matchPredictions } from './matching.js';
import { imageMasks } from './masks.js';
import type { EvalBox, EvalImage, ImageOutcome } from './types.js';

export type DetectionTask = 'detect' | 'segment' | 'pose' | 'obb';

export interface DetectionMetricsOptions {
  task: DetectionTask;
  classNames: string[];
  /** Pose: keypoints per object and values per keypoint (2 or 3); default [17, 3]. */
  kptShape?: [number, number];
}

/**
 * Scores detections like ultralytics `val` (ADR 0034), one image at a time: each image's predictions are matched
 * to its labels at the ten IoU thresholds and only per-prediction numbers are kept, so memory grows with the number
 * of predictions, not images. `finish()` computes AP, P/R/F1, the curves and the confusion matrix.
 */
export class DetectionMetrics {
  private readonly task: DetectionTask;
  private readonly names: string[];
  private readonly nc: number;
  private readonly kpt: [number, number];
  private readonly columns = new PredictionColumns();
  private readonly instances: number[];
  private readonly imagesWith: number[];
  private readonly matrix: number[][];
  private images = 0;
  private finished = false;

  constructor(opts: DetectionMetricsOptions) {
    if (opts.classNames.length === 0) throw new RangeError('An evaluation needs at least one class');
    this.task = opts.task;
    this.names = [...opts.classNames];
    this.nc = opts.classNames.length;
    this.kpt = opts.kptShape ?? [17, 3];
    this.instances = new Array<number>(this.nc).fill(0);
    this.imagesWith = new Array<number>(this.nc).fill(0);
    this.matrix = Array.from({ length: this.nc + 1 }, () => new Array<number>(this.nc + 1).fill(0));
  }

  addImage(image: EvalImage): ImageOutcome {
    if (this.finished) throw new Error('addImage after finish()');
    const { labels, predictions } = image;
    if (!(image.width > 0 && image.height > 0 && Number.isFinite(image.width) && Number.isFinite(image.height))) {
      throw new RangeError(`Image ${image.imageId}: width and height must be positive`);
    }
    for (const b of labels) this.checkBox(b, image.imageId, false);
    for (const b of predictions) this.checkBox(b, image.imageId, true);
    this.images++;

    const labelCls = labels.map((b) => b.classId);
    const predCls = predictions.map((b) => b.classId);
    const geometry =
      this.task === 'obb'
        ? probIou(labels.map(rbox), predictions.map(rbox))
        : boxIou(
            labels.map((b) => b.box as Box),
            predictions.map((b) => b.box as Box),
          );
    const tp = labels.length && predictions.length ? matchPredictions(geometry, labelCls, predCls) : new Uint16Array(predictions.length);
    let tp2: Uint16Array = new Uint16Array(predictions.length);
    if (labels.length && predictions.length && (this.task === 'segment' || this.task === 'pose')) {
      tp2 = matchPredictions(this.secondIou(image), labelCls, predCls);
    }
    predictions.forEach((p, j) => this.columns.push(p.confidence as number, p.classId, tp[j], tp2[j]));
    const seen = new Set<number>();
    for (const c of labelCls) {
      this.instances[c]++;
      seen.add(c);
    }
    for (const c of seen) this.imagesWith[c]++;

    return this.confusion(labels, predictions, geometry);
  }

  finish(): DetectionEvalResult {
    this.finished = true;
    const { conf, cls, tp, tp2 } = this.columns.view();
    const base = { conf, cls, instances: this.instances, images: this.imagesWith, classNames: this.names, thresholds: IOU_THRESHOLDS.length };
    const result: DetectionEvalResult = {
      task: this.task,
      classNames: this.names,
      images: this.images,
      instances: this.instances.reduce((a, b) => a + b, 0),
      predictions: conf.length,
      box: apPerClass({ ...base, tp }),
      confusionMatrix: {
        names: [...this.names, 'background'],
        background: true,
        matrix: this.matrix.map((row) => [...row]),
        conf: CONFUSION_CONF,
        iou: 0.45,
      },
      protocol: {
        name: 'ultralytics-val',
        iouThresholds: IOU_THRESHOLDS.map((t) => Math.round(t * 100) / 100),
        confusionConf: CONFUSION_CONF,
        confusionIou: 0.45,
      },
    };
    if (this.task === 'segment') result.mask = apPerClass({ ...base, tp: tp2 });
    if (this.task === 'pose') result.pose = apPerClass({ ...base, tp: tp2 });
    return result;
  }

  private secondIou(image: EvalImage): PairMatrix {
    if (this.task === 'pose') {
      const [nk, dims] = this.kpt;
      const need = nk * dims;
      for (const b of [...image.labels, ...image.predictions]) {
        if (!b.keypoints || b.keypoints.length !== need) throw new RangeError(`Image ${image.imageId}: pose boxes need ${need} keypoint values`);
      }
      return keypointOks(
        image.labels.map((b) => ({ box: b.box, keypoints: b.keypoints as number[] })),
        image.predictions.map((b) => ({ keypoints: b.keypoints as number[] })),
        nk,
        dims,
      );
    }
    const { labels, predictions } = imageMasks(image);
    return maskIou(labels, predictions, (i, j) => image.labels[i].classId === image.predictions[j].classId);
  }

  /** ultralytics `ConfusionMatrix.process_batch`, plus the lists of what it counted off the diagonal. */
  private confusion(labels: EvalBox[], predictions: EvalBox[], iou: PairMatrix): ImageOutcome {
    const nc = this.nc;
    const confident: number[] = [];
    predictions.forEach((p, j) => {
      if (Math.fround(p.confidence as number) > CONFUSION_CONF) confident.push(j);
    });
    const match = confusionMatch(iou, confident, CONFUSION_IOU);
    const outcome: ImageOutcome = { falsePositives: [], falseNegatives: [], wrongClass: [], truePositives: 0 };
    const used = new Set<number>();
    labels.forEach((label, i) => {
      const j = match[i];
      if (j < 0) {
        this.matrix[nc][label.classId]++;
        outcome.falseNegatives.push(label);
        return;
      }
      used.add(j);
      const prediction = predictions[j];
      this.matrix[prediction.classId][label.classId]++;
      if (prediction.classId === label.classId) outcome.truePositives++;
      else outcome.wrongClass.push({ prediction, label, iou: iou.data[i * iou.cols + j] });
    });
    for (const j of confident) {
      if (used.has(j)) continue;
      this.matrix[predictions[j].classId][nc]++;
      outcome.falsePositives.push(predictions[j]);
    }
    outcome.falsePositives.sort((a, b) => (b.confidence as number) - (a.confidence as number));
    outcome.wrongClass.sort((a, b) => (b.prediction.confidence as number) - (a.prediction.confidence as number));
    return outcome;
  }

  private checkBox(b: EvalBox, imageId: string, prediction: boolean): void {
    if (!Number.isInteger(b.classId) || b.classId < 0 || b.classId >= this.nc) {
      throw new RangeError(`Image ${imageId}: class id ${b.classId} is outside 0..${this.nc - 1}`);
    }
    if (b.box.length !== 4 || !b.box.every(Number.isFinite)) throw new RangeError(`Image ${imageId}: a box needs four finite numbers`);
    if (prediction && !(typeof b.confidence === 'number' && b.confidence >= 0 && b.confidence <= 1)) {
      throw new RangeError(`Image ${imageId}: a prediction needs a confidence within [0, 1]`);
    }
    if (this.task === 'obb' && !b.rbox) throw new RangeError(`Image ${imageId}: obb boxes need rbox`);
  }
}

function rbox(b: EvalBox): RotatedBox {
  return b.rbox as RotatedBox;
}
