import { describe, expect, it } from 'vitest';
import {
  detectLayout,
  imageToLabelPath,
  resolveLayout,
  type DatasetLayout,
  type DetectedLayout,
  type LayoutEntryInput,
  type YamlSplitPaths,
} from './layout.js';
import type { DatasetTask } from './types.js';

/** Entry list from names; a trailing slash marks a folder, as in a zip. */
const entries = (...names: string[]): LayoutEntryInput[] => names.map((n) => ({ name: n.replace(/\/$/, ''), isDirectory: n.endsWith('/') }));

function detect(list: LayoutEntryInput[], task: DatasetTask = 'detect'): DetectedLayout {
  const result = detectLayout(list, { task });
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.layout;
}
function resolve(list: LayoutEntryInput[], task: DatasetTask = 'detect', yaml?: YamlSplitPaths): DatasetLayout {
  const result = resolveLayout(list, detect(list, task), yaml);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return result.layout;
}
const errorOf = (list: LayoutEntryInput[], task: DatasetTask = 'detect') => {
  const result = detectLayout(list, { task });
  if (result.ok) throw new Error('expected an error');
  return result.error;
};
const codes = (layout: DatasetLayout) => layout.issues.map((i) => `${i.severity}:${i.code}`);

const hub = entries(
  'shapes3/',
  'shapes3/data.yaml',
  'shapes3/images/train/a.jpg',
  'shapes3/images/train/b.jpg',
  'shapes3/images/val/c.jpg',
  'shapes3/labels/train/a.txt',
  'shapes3/labels/train/b.txt',
  'shapes3/labels/val/c.txt',
);

describe('detectLayout', () => {
  it('finds the HUB layout inside its folder', () => {
    const layout = detect(hub);
    expect(layout).toMatchObject({ kind: 'yolo', root: 'shapes3', yamlPath: 'shapes3/data.yaml', tasks: ['detect', 'segment', 'pose', 'obb'] });
    expect(layout.description).toContain('shapes3/data.yaml');
  });

  it("finds HUB's name/name.yaml", () => {
    expect(detect(entries('ds/ds.yaml', 'ds/images/train/a.jpg', 'ds/labels/train/a.txt')).yamlPath).toBe('ds/ds.yaml');
  });

  it('finds a flat layout at the archive root and ignores macOS junk', () => {
    const layout = detect(entries('__MACOSX/._data.yaml', 'data.yaml', '.DS_Store', 'images/train/a.jpg', 'labels/train/a.txt'));
    expect(layout).toMatchObject({ kind: 'yolo', root: '', yamlPath: 'data.yaml' });
  });

  it('looks through several wrapping folders but not into a split folder', () => {
    expect(detect(entries('export/v2/data.yaml', 'export/v2/images/train/a.jpg')).root).toBe('export/v2');
    expect(detect(entries('train/cat/a.jpg'), 'classify').root).toBe('');
  });

  it("recognises Roboflow's train/valid/test layout", () => {
    const layout = detect(entries('data.yaml', 'README.roboflow.txt', 'train/images/a.jpg', 'train/labels/a.txt', 'valid/images/b.jpg', 'valid/labels/b.txt'));
    expect(layout).toMatchObject({ kind: 'roboflow', root: '' });
  });

  it('prefers data.yaml among several yaml files, and names them when none is preferred', () => {
    expect(detect(entries('ds/data.yaml', 'ds/hyp.yaml', 'ds/images/train/a.jpg')).yamlPath).toBe('ds/data.yaml');
    const error = errorOf(entries('ds/one.yaml', 'ds/two.yaml', 'ds/images/train/a.jpg'));
    expect(error.code).toBe('dataset/ambiguous-yaml');
    expect(error.message).toContain('one.yaml, two.yaml');
  });

  it('recognises classification folders and sorts nothing yet', () => {
    const layout = detect(entries('cls/train/dog/1.jpg', 'cls/train/cat/1.jpg', 'cls/val/cat/2.jpg'), 'classify');
    expect(layout).toMatchObject({ kind: 'classify', root: 'cls', yamlPath: null, tasks: ['classify'] });
  });

  it('says dataset/no-yaml when images and labels have no yaml', () => {
    const error = errorOf(entries('ds/images/train/a.jpg', 'ds/labels/train/a.txt', 'ds/images/val/b.jpg'));
    expect(error.code).toBe('dataset/no-yaml');
    expect(error.message).toContain('"ds/"');
    expect(error.message).toContain('data.yaml');
  });

  it('says dataset/no-images when there is no image at all', () => {
    const error = errorOf(entries('ds/data.yaml', 'ds/labels/train/a.txt', 'ds/images/train/a.gif'));
    expect(error.code).toBe('dataset/no-images');
    expect(error.message).toMatch(/1 files in formats/);
  });

  it('says the task does not match the layout, both ways', () => {
    expect(errorOf(hub, 'classify').code).toBe('dataset/task-mismatch');
    const error = errorOf(entries('train/cat/1.jpg', 'val/cat/2.jpg'), 'detect');
    expect(error.code).toBe('dataset/task-mismatch');
    expect(error.message).toMatch(/classify/);
  });

  it('explains an unrecognised layout with what was found', () => {
    const error = errorOf(entries('photos/a.jpg', 'photos/b.jpg', 'notes.md'));
    expect(error.code).toBe('dataset/unknown-layout');
    expect(error.message).toContain('photos/');
  });
});

describe('resolveLayout: yolo', () => {
  it('pairs images with labels by ultralytics rules, following the yaml', () => {
    const layout = resolve(hub, 'detect', { train: ['images/train'], val: ['images/val'] });
    expect(layout.splits.train?.images.map((i) => [i.entry, i.label])).toEqual([
      ['shapes3/images/train/a.jpg', 'shapes3/labels/train/a.txt'],
      ['shapes3/images/train/b.jpg', 'shapes3/labels/train/b.txt'],
    ]);
    expect(layout.splits.val?.images).toHaveLength(1);
    expect(layout.splits.test).toBeUndefined();
    expect(codes(layout)).toEqual(['warning:dataset/no-test']);
  });

  it('resolves Roboflow ../train/images paths and maps valid to val', () => {
    const list = entries(
      'data.yaml',
      'train/images/a.jpg',
      'train/labels/a.txt',
      'valid/images/b.jpg',
      'valid/labels/b.txt',
      'test/images/c.jpg',
      'test/labels/c.txt',
    );
    const layout = resolve(list, 'detect', { train: ['../train/images'], val: ['../valid/images'], test: ['../test/images'] });
    expect(layout.splits.train?.dirs).toEqual(['train/images']);
    expect(layout.splits.val?.dirs).toEqual(['valid/images']);
    expect(layout.splits.val?.images[0].label).toBe('valid/labels/b.txt');
    expect(layout.splits.test?.images[0].label).toBe('test/labels/c.txt');
    expect(layout.issues).toEqual([]);
  });

  it('works inside a wrapping folder for Roboflow too', () => {
    const list = entries(
      'My Set.v3/data.yaml',
      'My Set.v3/train/images/a.jpg',
      'My Set.v3/train/labels/a.txt',
      'My Set.v3/valid/images/b.jpg',
      'My Set.v3/valid/labels/b.txt',
    );
    const layout = resolve(list, 'detect', { train: ['../train/images'], val: ['../valid/images'] });
    expect(layout.root).toBe('My Set.v3');
    expect(layout.splits.val?.images[0].entry).toBe('My Set.v3/valid/images/b.jpg');
  });

  it('maps an absolute path from another machine to the folder that exists, with a warning', () => {
    const layout = resolve(hub, 'detect', { train: ['/content/datasets/shapes3/images/train'], val: ['images/val'] });
    expect(layout.splits.train?.dirs).toEqual(['shapes3/images/train']);
    expect(codes(layout)).toContain('warning:dataset/split-path-mapped');
  });

  it('names the split and path when the yaml points at a missing folder', () => {
    const result = resolveLayout(hub, detect(hub), { train: ['images/train'], val: ['images/val'], test: ['images/holdout'] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('dataset/missing-split');
    expect(result.error.message).toContain('test: images/holdout');
    expect(result.error.message).toContain('shapes3/images/holdout/');
    expect(result.error.message).toContain('images/');
    expect(result.error.file).toBe('shapes3/data.yaml');
  });

  it('falls back to the conventional folder of a split when the yaml path is wrong, with a warning', () => {
    const layout = resolve(hub, 'detect', { train: ['images/train'], val: ['images/validation_set'] });
    expect(layout.splits.val?.dirs).toEqual(['shapes3/images/val']);
    expect(layout.issues.find((i) => i.code === 'dataset/split-path-mapped')?.message).toContain('val: images/validation_set');
  });

  it('uses the yaml path: key when it is relative', () => {
    const list = entries('cfg/data.yaml', 'cfg/sets/images/train/a.jpg', 'cfg/sets/labels/train/a.txt');
    const layout = resolve(list, 'detect', { path: 'sets', train: ['images/train'], val: ['images/train'] });
    expect(layout.splits.train?.images[0].label).toBe('cfg/sets/labels/train/a.txt');
  });

  it('reports unlabelled images, orphan labels and duplicate names', () => {
    const list = entries(
      'data.yaml',
      'images/train/a.jpg',
      'images/train/b.jpg',
      'images/train/sub/a.jpg',
      'images/train/c.jpg',
      'images/train/c.png',
      'labels/train/a.txt',
      'labels/train/ghost.txt',
      'labels/train/classes.txt',
      'images/val/v.jpg',
      'labels/val/v.txt',
    );
    const layout = resolve(list, 'detect', { train: ['images/train'], val: ['images/val'] });
    const byCode = (code: string) => layout.issues.filter((i) => i.code === code);
    expect(byCode('image/unlabelled').map((i) => i.file)).toEqual(['images/train/b.jpg', 'images/train/c.jpg', 'images/train/c.png', 'images/train/sub/a.jpg']);
    expect(byCode('image/unlabelled').every((i) => i.severity === 'warning')).toBe(true);
    expect(byCode('label/orphan')).toEqual([expect.objectContaining({ severity: 'warning', file: 'labels/train/ghost.txt' })]);
    expect(layout.orphanLabels).toEqual(['labels/train/ghost.txt']);
    const dups = byCode('image/duplicate-name');
    expect(dups.map((d) => d.file)).toEqual(['images/train/c.png', 'images/train/sub/a.jpg']);
    expect(dups.every((d) => d.severity === 'error')).toBe(true);
  });

  it('turns a split without any label into one line, an error for train', () => {
    const list = entries('data.yaml', 'images/train/a.jpg', 'images/train/b.jpg', 'images/val/c.jpg');
    const layout = resolve(list, 'detect', { train: ['images/train'], val: ['images/val'] });
    expect(layout.issues.filter((i) => i.code === 'dataset/no-labels').map((i) => i.severity)).toEqual(['error', 'warning']);
    expect(layout.issues.some((i) => i.code === 'image/unlabelled')).toBe(false);
  });

  it('warns about an empty val split but refuses an empty train split', () => {
    const list = entries('data.yaml', 'images/train/a.jpg', 'labels/train/a.txt', 'images/val/');
    const layout = resolve(list, 'detect', { train: ['images/train'], val: ['images/val'] });
    expect(layout.issues.find((i) => i.code === 'dataset/empty-split')?.severity).toBe('warning');
    const emptyTrain = resolve(entries('data.yaml', 'images/train/', 'images/val/a.jpg', 'labels/val/a.txt'), 'detect', {
      train: ['images/train'],
      val: ['images/val'],
    });
    expect(emptyTrain.issues.find((i) => i.code === 'dataset/empty-split')).toMatchObject({ severity: 'error', message: expect.stringContaining('train') });
  });

  it('says dataset/no-images when the yaml splits hold no images', () => {
    const list = entries('data.yaml', 'images/train/', 'images/val/', 'other/a.jpg');
    const result = resolveLayout(list, detect(list), { train: ['images/train'], val: ['images/val'] });
    expect(result.ok || result.error.code).toBe('dataset/no-images');
  });

  it('falls back to conventional folders without a yaml (browser pre-check)', () => {
    const layout = resolve(hub);
    expect(Object.keys(layout.splits)).toEqual(['train', 'val']);
  });
});

describe('resolveLayout: classify', () => {
  it('takes classes from train folder names in alphabetical order and maps valid to val', () => {
    const list = entries(
      'cls/train/zebra/1.jpg',
      'cls/train/ant/2.jpg',
      'cls/train/ant/3.png',
      'cls/valid/zebra/4.jpg',
      'cls/valid/ant/5.jpg',
      'cls/test/ant/6.jpg',
    );
    const layout = resolve(list, 'classify');
    expect(layout.classNames).toEqual(['ant', 'zebra']);
    expect(layout.splits.train?.images.map((i) => [i.name, i.classIndex])).toEqual([
      ['2.jpg', 0],
      ['3.png', 0],
      ['1.jpg', 1],
    ]);
    expect(layout.splits.val?.dirs).toEqual(['cls/valid']);
    expect(codes(layout)).toEqual(['warning:classify/missing-class']);
  });

  it('reports class folders unknown to train, empty classes and loose images', () => {
    const list = entries('train/cat/1.jpg', 'train/dog/2.jpg', 'train/loose.jpg', 'val/cat/3.jpg', 'val/dog/', 'val/bird/4.jpg');
    const layout = resolve(list, 'classify');
    expect(codes(layout)).toEqual(
      expect.arrayContaining(['warning:classify/loose-image', 'error:classify/unknown-class', 'error:classify/empty-class', 'warning:dataset/no-test']),
    );
    expect(layout.issues.find((i) => i.code === 'classify/unknown-class')?.file).toBe('val/bird');
  });

  it('needs a train folder', () => {
    const list = entries('val/cat/1.jpg');
    const result = resolveLayout(list, detect(list, 'classify'));
    expect(result.ok || result.error.code).toBe('dataset/missing-split');
  });

  it('ignores a stray yaml in a classification archive, with a warning', () => {
    const layout = resolve(entries('data.yaml', 'train/cat/1.jpg', 'val/cat/2.jpg'), 'classify');
    expect(codes(layout)).toContain('warning:dataset/yaml-ignored');
  });
});

describe('imageToLabelPath', () => {
  it.each([
    ['images/train/a.jpg', 'labels/train/a.txt'],
    ['ds/images/train/sub/a.b.PNG', 'ds/labels/train/sub/a.b.txt'],
    ['images/x/images/y/a.jpg', 'images/x/labels/y/a.txt'],
    ['train/a.jpg', 'train/a.txt'],
  ])('%s → %s', (image, label) => {
    expect(imageToLabelPath(image)).toBe(label);
  });
});
