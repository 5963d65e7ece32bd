import { describe, expect, it } from 'vitest';
import { issue } from './types.js';
import { parseDatasetYaml, parseLabelFile, ReportBuilder, reportToText, taskMismatchHint } from './validate.js';

const yaml = (text: string, task: 'detect' | 'pose' = 'detect') => parseDatasetYaml(text, { file: 'ds/data.yaml', task });
const errors = (r: { issues: Array<{ severity: string; code: string; message: string; line?: number }> }) => r.issues.filter((i) => i.severity === 'error');

describe('parseDatasetYaml', () => {
  it('reads names as a mapping, as HUB writes them', () => {
    const r = yaml('# comment\ntrain: images/train\nval: images/val\ntest: images/test\n\nnames:\n  0: red_square\n  1: green_circle\n  2: blue_triangle\n');
    expect(r.issues).toEqual([]);
    expect(r.config).toEqual({
      names: ['red_square', 'green_circle', 'blue_triangle'],
      nc: 3,
      splits: { path: null, train: ['images/train'], val: ['images/val'], test: ['images/test'] },
      kptShape: null,
    });
  });

  it('reads names as a list, nc when consistent, lists of split folders and validation: as val', () => {
    const r = yaml('path: ../datasets/x\ntrain: [images/a, images/b]\nvalidation: images/val\nnc: 2\nnames: [cat, dog]\n');
    expect(r.config?.names).toEqual(['cat', 'dog']);
    expect(r.config?.splits).toEqual({ path: '../datasets/x', train: ['images/a', 'images/b'], val: ['images/val'] });
  });

  it('rejects nc that disagrees with names, giving the line', () => {
    const r = yaml('train: images/train\nval: images/val\nnc: 3\nnames: [cat, dog]\n');
    expect(r.config).toBeNull();
    expect(errors(r)).toEqual([expect.objectContaining({ code: 'dataset/yaml-invalid', line: 3, message: expect.stringContaining('nc: 3') })]);
  });

  it('rejects a names mapping with holes in the class ids', () => {
    const r = yaml('train: a\nval: a\nnames:\n  0: cat\n  2: dog\n');
    expect(r.config).toBeNull();
    expect(errors(r)[0].message).toMatch(/1 is missing/);
  });

  it('names missing train and val entries', () => {
    const r = yaml('names: [a]\n');
    expect(errors(r).map((e) => e.message)).toEqual([expect.stringContaining('no train:'), expect.stringContaining('no val:')]);
  });

  it('makes class names from nc alone, with a warning', () => {
    const r = yaml('train: a\nval: a\nnc: 2\n');
    expect(r.config?.names).toEqual(['class_0', 'class_1']);
    expect(r.issues.map((i) => i.severity)).toEqual(['warning']);
  });

  it('refuses .txt image lists and syntax errors with their line', () => {
    expect(errors(yaml('train: train.txt\nval: images/val\nnames: [a]\n'))[0].message).toMatch(/list file/);
    const bad = yaml('train: images/train\nval: [images/val\nnames: [a]\n');
    expect(bad.config).toBeNull();
    expect(errors(bad)[0]).toMatchObject({ code: 'dataset/yaml-invalid', file: 'ds/data.yaml' });
    expect(errors(bad)[0].line).toBeGreaterThan(1);
  });

  it('requires kpt_shape for pose', () => {
    expect(errors(yaml('train: a\nval: a\nnames: [person]\n', 'pose'))[0].message).toMatch(/kpt_shape/);
    expect(yaml('train: a\nval: a\nnames: [person]\nkpt_shape: [17, 3]\n', 'pose').config?.kptShape).toEqual([17, 3]);
  });

  it('warns about duplicate class names', () => {
    expect(yaml('train: a\nval: a\nnames: [cat, cat]\n').issues.map((i) => i.code)).toEqual(['dataset/duplicate-class-name']);
  });
});

describe('parseLabelFile', () => {
  const detect = { task: 'detect' as const, nc: 3 };

  it('returns valid detect rows and skips blank lines, CRLF and a BOM', () => {
    const r = parseLabelFile('\uFEFF0 0.5 0.5 0.2 0.2\r\n\r\n2 0.1 0.2 0.05 0.1\n', 'a.txt', detect);
    expect(r.issues).toEqual([]);
    expect(r.rows).toEqual([
      [0, 0.5, 0.5, 0.2, 0.2],
      [2, 0.1, 0.2, 0.05, 0.1],
    ]);
  });

  it('reports a wrong value count with file and line', () => {
    const r = parseLabelFile('0 0.5 0.5 0.2 0.2\n1 0.5 0.5 0.2\n', 'labels/a.txt', detect);
    expect(r.issues).toEqual([
      expect.objectContaining({ severity: 'error', code: 'label/value-count', file: 'labels/a.txt', line: 2, message: expect.stringContaining('found 4') }),
    ]);
    expect(r.rows).toHaveLength(1);
  });

  it('reports out-of-range values, naming the column, but allows ultralytics 1 % tolerance (clamped)', () => {
    const r = parseLabelFile('0 0.5 1.5 0.2 0.2\n0 1.005 0.5 0.2 0.2\n0 0.5 0.5 -0.2 0.1\n', 'a.txt', detect);
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([
      [1, 'label/out-of-range'],
      [3, 'label/out-of-range'],
    ]);
    expect(r.issues[0].message).toMatch(/y_center/);
    expect(r.rows).toEqual([[0, 1, 0.5, 0.2, 0.2]]);
  });

  it('hints at pixel coordinates', () => {
    expect(parseLabelFile('0 320 240 50 50\n', 'a.txt', detect).issues[0].message).toMatch(/pixel/);
  });

  it('reports class ids that are too large, negative or not whole', () => {
    const r = parseLabelFile('3 0.5 0.5 0.1 0.1\n-1 0.5 0.5 0.1 0.1\n1.5 0.5 0.5 0.1 0.1\n1.0 0.5 0.5 0.1 0.1\n', 'a.txt', detect);
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([
      [1, 'label/class-id'],
      [2, 'label/class-id'],
      [3, 'label/class-id'],
    ]);
    expect(r.issues[0].message).toMatch(/3 classes \(ids 0-2\)/);
    expect(r.rows).toEqual([[1, 0.5, 0.5, 0.1, 0.1]]);
  });

  it('reports values that are not numbers', () => {
    const r = parseLabelFile('0 0.5 nan 0.1 0.1\n0 0x1 0.5 0.1 0.1\n0 0.5 0.5 inf 0.1\n', 'a.txt', detect);
    expect(r.issues.map((i) => i.code)).toEqual(['label/not-a-number', 'label/not-a-number', 'label/not-a-number']);
  });

  it('removes duplicate rows with a warning, as ultralytics does', () => {
    const r = parseLabelFile('0 0.5 0.5 0.1 0.1\n0 0.5 0.5 0.1 0.1\n', 'a.txt', detect);
    expect(r.rows).toHaveLength(1);
    expect(r.issues).toEqual([expect.objectContaining({ severity: 'warning', code: 'label/duplicate-row' })]);
  });

  it('turns a polygon in a detect dataset into its box', () => {
    const r = parseLabelFile('1 0.1 0.2 0.5 0.2 0.5 0.6\n', 'a.txt', detect);
    expect(r.rows[0][0]).toBe(1);
    expect(r.rows[0].slice(1).map((v) => Number(v.toFixed(6)))).toEqual([0.3, 0.4, 0.4, 0.4]);
  });

  it('checks segment polygons and explains a box in a segment dataset', () => {
    const seg = { task: 'segment' as const, nc: 2 };
    const r = parseLabelFile('0 0.1 0.1 0.5 0.1 0.3 0.4\n1 0.5 0.5 0.2 0.2\n1 0.1 0.1 0.2 0.2 0.3\n', 's.txt', seg);
    expect(r.rows).toEqual([[0, 0.1, 0.1, 0.5, 0.1, 0.3, 0.4]]);
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([
      [2, 'label/value-count'],
      [3, 'label/value-count'],
    ]);
    expect(r.issues[0].message).toMatch(/detection box/);
    expect(r.shapes).toEqual({ boxes: 1, polygons: 1, other: 1 });
  });

  it('checks pose rows against kpt_shape and leaves visibility alone', () => {
    const pose = { task: 'pose' as const, nc: 1, kptShape: [2, 3] as [number, number] };
    const r = parseLabelFile('0 0.5 0.5 0.2 0.2 0.4 0.4 2 0.6 0.6 1\n0 0.5 0.5 0.2 0.2 0.4 0.4\n0 0.5 0.5 0.2 0.2 0.4 1.4 2 0.6 0.6 1\n', 'p.txt', pose);
    expect(r.rows).toEqual([[0, 0.5, 0.5, 0.2, 0.2, 0.4, 0.4, 2, 0.6, 0.6, 1]]);
    expect(r.issues.map((i) => [i.line, i.code])).toEqual([
      [2, 'label/value-count'],
      [3, 'label/out-of-range'],
    ]);
    expect(r.issues[1].message).toMatch(/keypoint 1 y/);
  });

  it('checks obb rows', () => {
    const r = parseLabelFile('0 0.1 0.1 0.4 0.1 0.4 0.3 0.1 0.3\n0 0.5 0.5 0.1 0.1\n', 'o.txt', { task: 'obb', nc: 1 });
    expect(r.rows).toHaveLength(1);
    expect(r.issues[0]).toMatchObject({ line: 2, code: 'label/value-count' });
  });

  it('caps findings per file and says how many more there are', () => {
    const text = Array.from({ length: 50 }, () => '0 0.5').join('\n');
    const r = parseLabelFile(text, 'bad.txt', { ...detect, maxIssuesPerFile: 5 });
    expect(r.issues).toHaveLength(6);
    expect(r.issues[5].message).toMatch(/45 more/);
  });

  it('spots a detect-labelled dataset uploaded as segment', () => {
    expect(taskMismatchHint('segment', { boxes: 10, polygons: 0, other: 0 })?.code).toBe('dataset/task-mismatch');
    expect(taskMismatchHint('segment', { boxes: 10, polygons: 1, other: 0 })).toBeNull();
    expect(taskMismatchHint('detect', { boxes: 10, polygons: 0, other: 0 })).toBeNull();
  });
});

describe('report', () => {
  it('caps each list, counts the rest and per code, and puts fatal errors first', () => {
    const b = new ReportBuilder(3);
    for (let i = 0; i < 5; i++) b.add(issue('error', 'label/out-of-range', `bad ${i}`, `l${i}.txt`, i + 1));
    b.add([issue('warning', 'image/unlabelled', 'no label', 'a.jpg')]);
    b.addFirst(issue('error', 'dataset/task-mismatch', 'wrong task'));
    const r = b.toReport();
    expect(r.errors.map((e) => e.code)).toEqual(['dataset/task-mismatch', 'label/out-of-range', 'label/out-of-range']);
    expect(r).toMatchObject({ errorCount: 6, warningCount: 1, omittedErrors: 3, omittedWarnings: 0 });
    expect(r.countsByCode).toEqual({ 'label/out-of-range': 5, 'image/unlabelled': 1, 'dataset/task-mismatch': 1 });
    expect(r.errors[1]).toEqual({ code: 'label/out-of-range', message: 'bad 0', file: 'l0.txt', line: 1 });
  });

  it('renders a text report with file:line, code and what was left out', () => {
    const b = new ReportBuilder(1);
    b.add(issue('error', 'label/value-count', 'Expected 5 values, found 4.', 'ds/labels/train/a.txt', 7));
    b.add(issue('error', 'image/corrupt', 'Cannot read.', 'ds/images/train/b.jpg'));
    b.add(issue('warning', 'dataset/no-test', 'There is no test split.'));
    const text = reportToText(b.toReport());
    expect(text).toContain('Result: FAILED: 2 errors, 1 warning.');
    expect(text).toContain('ds/labels/train/a.txt:7  [label/value-count]  Expected 5 values, found 4.');
    expect(text).toContain('… and 1 more not listed.');
    expect(text).toContain('(dataset)  [dataset/no-test]');
    expect(reportToText(new ReportBuilder().toReport())).toContain('PASSED');
  });
});
