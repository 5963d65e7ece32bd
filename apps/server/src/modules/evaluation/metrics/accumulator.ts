/** Per-prediction columns that grow in chunks: the evaluation keeps O(predictions) numbers and nothing per image. */
export class PredictionColumns {
  conf = new Float32Array(1024);
  cls = new Int32Array(1024);
  tp = new Uint16Array(1024);
  /** Second geometry (mask or keypoints), when the task has one. */
  tp2 = new Uint16Array(1024);
  length = 0;

  push(conf: number, cls: number, tp: number, tp2: number): void {
    if (this.length === this.conf.length) {
      const grow = <T extends Float32Array | Int32Array | Uint16Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.conf = grow(this.conf);
      this.cls = grow(this.cls);
      this.tp = grow(this.tp);
      this.tp2 = grow(this.tp2);
    }
    const i = this.length++;
    this.conf[i] = conf;
    this.cls[i] = cls;
    this.tp[i] = tp;
    this.tp2[i] = tp2;
  }

  view(): { conf: Float32Array; cls: Int32Array; tp: Uint16Array; tp2: Uint16Array } {
    const n = this.length;
    return { conf: this.conf.subarray(0, n), cls: this.cls.subarray(0, n), tp: this.tp.subarray(0, n), tp2: this.tp2.subarray(0, n) };
  }
}
