import type { ClassificationEvalResult } from '@sightline/contracts';

export interface ClassificationMetricsOptions {
  classNames: string[];
}

export interface ClassificationImage {
  imageId: string;
  labelClassId: number;
  /** One probability per class, by class id (the model's softmax output). */
  probabilities: number[];
}

/**
 * Top-1 / top-5 accuracy and the nc × nc confusion matrix (`matrix[top-1 prediction][label]`) like ultralytics'
 * classification validator (ADR 0034): top-5 means the label is among the min(5, nc) most probable classes.
 */
export class ClassificationMetrics {
  private readonly names: string[];
  private readonly nc: number;
  private readonly matrix: number[][];
  private images = 0;
  private top1 = 0;
  private top5 = 0;
  private finished = false;

  constructor(opts: ClassificationMetricsOptions) {
    if (opts.classNames.length === 0) throw new RangeError('An evaluation needs at least one class');
    this.names = [...opts.classNames];
    this.nc = opts.classNames.length;
    this.matrix = Array.from({ length: this.nc }, () => new Array<number>(this.nc).fill(0));
  }

  addImage(image: ClassificationImage): { correct: boolean; top5: boolean; predictedClassId: number } {
    if (this.finished) throw new Error('addImage after finish()');
    const { labelClassId: label, probabilities: probs } = image;
    if (!Number.isInteger(label) || label < 0 || label >= this.nc)
      throw new RangeError(`Image ${image.imageId}: class id ${label} is outside 0..${this.nc - 1}`);
    if (probs.length !== this.nc || !probs.every(Number.isFinite)) throw new RangeError(`Image ${image.imageId}: expected ${this.nc} finite probabilities`);
    const k = Math.min(5, this.nc);
    const ranked = probs.map((p, c) => c).sort((a, b) => probs[b] - probs[a] || a - b);
    const predicted = ranked[0];
    const correct = predicted === label;
    const top5 = ranked.slice(0, k).includes(label);
    this.images++;
    if (correct) this.top1++;
    if (top5) this.top5++;
    this.matrix[predicted][label]++;
    return { correct, top5, predictedClassId: predicted };
  }

  finish(): ClassificationEvalResult {
    this.finished = true;
    const n = this.images;
    return {
      task: 'classify',
      classNames: this.names,
      images: n,
      top1: n ? this.top1 / n : 0,
      top5: n ? this.top5 / n : 0,
      perClass: this.names.map((name, c) => {
        const images = this.matrix.reduce((s, row) => s + row[c], 0);
        const predicted = this.matrix[c].reduce((s, v) => s + v, 0);
        const correct = this.matrix[c][c];
        return { classId: c, name, images, correct, recall: images ? correct / images : null, precision: predicted ? correct / predicted : null };
      }),
      confusionMatrix: { names: this.names, background: false, matrix: this.matrix.map((row) => [...row]), conf: null, iou: null },
    };
  }
}
