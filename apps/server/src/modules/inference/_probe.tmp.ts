import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { InferenceEngine } from './inference.engine.js';
const dir = '/work/shared/fixtures/models';
const eng = new InferenceEngine();
const img = readFileSync(`${dir}/test-images/test_0003.png`);
const big = await sharp(img).resize(1920, 1440).jpeg().toBuffer();
for (const [m, im] of [['shapes3-detect.onnx', img], ['shapes3-seg.onnx', img], ['shapes3-cls.onnx', img], ['shapes3-detect.onnx', big], ['shapes3-cls.onnx', big]] as const) {
  const sp: any[] = [];
  for (let i = 0; i < 30; i++) sp.push((await eng.predict(`${dir}/${m}`, im)).speed);
  const med = (k: string) => sp.map((s) => s[k]).sort((a, b) => a - b)[15].toFixed(2);
  console.log(m, im.length, ['decode', 'preprocess', 'inference', 'postprocess'].map((k) => `${k}=${med(k)}`).join(' '));
}
