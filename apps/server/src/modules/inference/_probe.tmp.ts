import sharp from 'sharp';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { letterboxGeometry, letterboxImage, toChwFloat, classifyGeometry, classifyImage } from './preprocess.js';
const dir = '/work/shared/fixtures/models';
const g = JSON.parse(readFileSync(dir + '/golden-detect.json', 'utf8'));
for (const im of g.images) {
  const { data, info } = await sharp(readFileSync(`${dir}/test-images/${im.file}`)).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const img = { data: new Uint8Array(data), width: info.width, height: info.height };
  const geo = letterboxGeometry(img.width, img.height, [160, 160]);
  const lb = letterboxImage(img, geo);
  const sha = createHash('sha256').update(lb.data).digest('hex');
  const t = toChwFloat(lb); let sum = 0; for (const v of t) sum += v;
  console.log(im.file, info.channels, sha === im.input_check.sha256_letterboxed_rgb_hwc_uint8, sum.toFixed(3), im.input_check.sum_of_input_tensor, JSON.stringify(geo.pad), JSON.stringify(im.letterbox.pad_ltrb));
}
const c = JSON.parse(readFileSync(dir + '/golden-classify.json', 'utf8'));
for (const im of c.images) {
  const { data, info } = await sharp(readFileSync(`${dir}/${im.file}`)).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const img = { data: new Uint8Array(data), width: info.width, height: info.height };
  const out = classifyImage(img, classifyGeometry(img.width, img.height, [64, 64]));
  const t = toChwFloat(out); let sum = 0; for (const v of t) sum += v;
  if (Math.abs(sum - im.input_check.sum_of_input_tensor) > 0.002) console.log('CLS MISMATCH', im.file, sum, im.input_check.sum_of_input_tensor);
}
console.log('cls done');
