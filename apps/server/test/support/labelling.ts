import fs from 'node:fs';
import path from 'node:path';
import AdmZip from 'adm-zip';
import yazl from 'yazl';
import { FIXTURES } from './harness.js';

/**
 * A detect dataset of `count` images in one split made from the shapes3 fixture's images (each used
 * again under a new name when `count` is larger), labelled for the first `labelled` of them only, as a
 * HUB upload zip, with a labelled `val` split of 10 images beside it (a dataset needs one). Returns the
 * zip and each image's bytes by name.
 */
export async function shapesSplitZip(count: number, labelled: number, split: 'train' | 'val' | 'test' = 'train') {
  const src = new AdmZip(path.join(FIXTURES, 'shapes3.zip'));
  const images = src
    .getEntries()
    .filter((e) => /^shapes3\/images\/\w+\/.+\.(png|jpe?g)$/.test(e.entryName))
    .sort((a, b) => a.entryName.localeCompare(b.entryName));
  const labelOf = (entry: string) => src.getEntry(entry.replace('/images/', '/labels/').replace(/\.\w+$/, '.txt'))?.getData() ?? null;
  const zip = new yazl.ZipFile();
  const yaml = `train: images/${split}\nval: images/val\nnames:\n  0: red_square\n  1: green_circle\n  2: blue_triangle\n`;
  zip.addBuffer(Buffer.from(yaml), 'shapes3/data.yaml');
  const bytes = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    const entry = images[i % images.length]!;
    const name = `img_${String(i).padStart(4, '0')}`;
    const ext = path.posix.extname(entry.entryName);
    const data = entry.getData();
    bytes.set(`${name}${ext}`, data);
    zip.addBuffer(data, `shapes3/images/${split}/${name}${ext}`, { compress: false });
    const label = i < labelled ? labelOf(entry.entryName) : null;
    if (label) zip.addBuffer(label, `shapes3/labels/${split}/${name}.txt`);
  }
  if (split !== 'val')
    for (const entry of images.filter((e) => e.entryName.includes('/images/val/')).slice(0, 10)) {
      const name = path.posix.basename(entry.entryName);
      zip.addBuffer(entry.getData(), `shapes3/images/val/${name}`, { compress: false });
      zip.addBuffer(labelOf(entry.entryName)!, `shapes3/labels/val/${name.replace(/\.\w+$/, '.txt')}`);
    }
  zip.end();
  const chunks: Buffer[] = [];
  for await (const c of zip.outputStream as AsyncIterable<Buffer>) chunks.push(c);
  return { zip: Buffer.concat(chunks), bytes };
}

export const fixtureFile = (name: string) => fs.readFileSync(path.join(FIXTURES, name));
