/**
 * Checks of the dataset yaml and of label files, and the per-file, per-line report users read and
 * download. Pure (strings in, findings out; `yaml` is plain JS) so the browser can run the same checks.
 * The rules follow ultralytics' `check_det_dataset` and `verify_image_label`, so that what passes
 * here trains there.
 */
import type { DatasetReport } from '../datasets.js';
import { isMap, isScalar, LineCounter, parseDocument, type Pair } from 'yaml';
import { ProcessingCode } from './errors.js';
import type { YamlSplitPaths } from './layout.js';
import { basename } from './paths.js';
import { issue, type DatasetTask, type Issue, type LabelRow, type LeftOutEntry, type ReportEntry } from './types.js';

// ---------------------------------------------------------------------------------------------
// dataset yaml

export interface DatasetYamlConfig {
  /** Class names in class-id order. */
  names: string[];
  nc: number;
  /** Split paths as written, for `resolveLayout`. */
  splits: YamlSplitPaths & { train: string[]; val: string[] };
  /** Pose only: keypoints per object and values per keypoint (2 = x y, 3 = x y visibility). */
  kptShape: [number, number] | null;
}

/** Longest dataset yaml read (characters); real ones are a few hundred. */
export const MAX_YAML_CHARS = 1024 * 1024;

/**
 * Parses and checks a dataset yaml. `config` is null when any error was found: without trustworthy
 * class names no label can be checked, so the caller stops there and shows all yaml errors at once.
 */
export function parseDatasetYaml(text: string, options: { file: string; task: DatasetTask }): { config: DatasetYamlConfig | null; issues: Issue[] } {
  const { file, task } = options;
  const name = basename(file);
  const issues: Issue[] = [];
  const error = (message: string, line?: number) => issues.push(issue('error', ProcessingCode.YamlInvalid, message, file, line));
  const lineCounter = new LineCounter();
  if (text.length > MAX_YAML_CHARS) {
    error(`${name} is ${text.length} characters long; a dataset yaml holds a few lines (the limit is ${MAX_YAML_CHARS}).`);
    return { config: null, issues };
  }
  let doc: ReturnType<typeof parseDocument>;
  try {
    doc = parseDocument(text.replace(/^\uFEFF/, ''), { lineCounter, uniqueKeys: false, prettyErrors: false });
  } catch (err) {
    // Pathological nesting can overflow the parser's stack: the same input fails the same way every time.
    error(`${name} cannot be read: ${(err as Error).message.split('\n')[0].slice(0, 200)}`);
    return { config: null, issues };
  }
  if (doc.errors.length > 0) {
    for (const e of doc.errors.slice(0, 5)) error(`${name} is not valid YAML: ${e.message.split('\n')[0]}`, lineCounter.linePos(e.pos[0]).line);
    return { config: null, issues };
  }
  if (!isMap(doc.contents)) {
    error(`${name} must be a mapping of keys such as train, val and names.`);
    return { config: null, issues };
  }
  const pairs = doc.contents.items as Pair[];
  const lineOf = (key: string): number | undefined => {
    const pair = pairs.find((p) => isScalar(p.key) && String(p.key.value) === key);
    const offset = pair && isScalar(pair.key) ? pair.key.range?.[0] : undefined;
    return offset === undefined ? undefined : lineCounter.linePos(offset).line;
  };
  // maxAliasCount keeps "billion laughs" alias expansion from eating memory; the yaml library throws
  // when it is passed, and that deterministic failure is a report line, never a retried job.
  let data: Record<string, unknown>;
  try {
    data = doc.toJS({ maxAliasCount: 100 }) as Record<string, unknown>;
  } catch (err) {
    const excessive = /alias/i.test((err as Error).message);
    error(
      excessive
        ? `${name} expands its aliases (&anchor / *alias) too many times, as a "billion laughs" file does; write the values out instead.`
        : `${name} cannot be read: ${(err as Error).message.split('\n')[0].slice(0, 200)}`,
    );
    return { config: null, issues };
  }

  // names / nc
  let names: string[] | null = null;
  const rawNames = data.names;
  if (Array.isArray(rawNames)) {
    names = rawNames.map((n) => (n === null || n === undefined ? '' : String(n)));
    const blank = names.findIndex((n) => n.trim() === '');
    if (blank !== -1) error(`names: class ${blank} has no name.`, lineOf('names'));
  } else if (rawNames && typeof rawNames === 'object') {
    const entries = Object.entries(rawNames as Record<string, unknown>);
    const byId = new Map<number, string>();
    for (const [key, value] of entries) {
      const id = Number(key);
      if (!Number.isInteger(id) || id < 0) {
        error(`names: "${key}" is not a class id; use 0, 1, 2, ... as keys.`, lineOf('names'));
        continue;
      }
      byId.set(id, value === null || value === undefined ? '' : String(value));
    }
    const missing: number[] = [];
    for (let i = 0; i < byId.size; i++) if (!byId.has(i)) missing.push(i);
    if (missing.length > 0) {
      error(
        `names: a ${byId.size}-class dataset needs class ids 0-${byId.size - 1}, but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing.`,
        lineOf('names'),
      );
    }
    names = [...byId.entries()].sort((a, b) => a[0] - b[0]).map(([, v]) => v);
    const blank = names.findIndex((n) => n.trim() === '');
    if (blank !== -1) error(`names: class ${blank} has no name.`, lineOf('names'));
  } else if (rawNames !== undefined && rawNames !== null) {
    error('names: must be a list (names: [cat, dog]) or a mapping (names: {0: cat, 1: dog}).', lineOf('names'));
  }

  const rawNc = data.nc;
  let nc: number | null = null;
  if (rawNc !== undefined && rawNc !== null) {
    if (typeof rawNc !== 'number' || !Number.isInteger(rawNc) || rawNc < 1)
      error(`nc: must be a positive whole number, found "${String(rawNc)}".`, lineOf('nc'));
    else nc = rawNc;
  }
  if (names && nc !== null && names.length !== nc) {
    error(`nc: ${nc} does not match names, which lists ${names.length} classes. Fix nc or the names (or remove nc).`, lineOf('nc'));
  }
  if (!names && nc !== null) {
    names = Array.from({ length: nc }, (_, i) => `class_${i}`);
    issues.push(
      issue(
        'warning',
        ProcessingCode.YamlInvalid,
        `${name} has nc: ${nc} but no names; the classes are called class_0 to class_${nc - 1}.`,
        file,
        lineOf('nc'),
      ),
    );
  }
  if (!names && rawNames === undefined && rawNc === undefined) error(`${name} has no names: list. Add the class names, for example names: [cat, dog].`);
  if (names && names.length === 0) error('names: is empty; a dataset needs at least one class.', lineOf('names'));
  if (names) {
    const seen = new Map<string, number>();
    names.forEach((n, i) => {
      const first = seen.get(n);
      if (first !== undefined)
        issues.push(issue('warning', ProcessingCode.DuplicateClassName, `Classes ${first} and ${i} are both called "${n}".`, file, lineOf('names')));
      else seen.set(n, i);
    });
  }

  // splits
  const splitValue = (key: string): string[] | null | 'invalid' => {
    const value = data[key];
    if (value === undefined || value === null || value === '') return null;
    const list = Array.isArray(value) ? value : [value];
    if (!list.every((v) => typeof v === 'string' && v.trim() !== '')) {
      error(`${key}: must be a folder path or a list of folder paths.`, lineOf(key));
      return 'invalid';
    }
    const paths = (list as string[]).map((p) => p.trim());
    const txt = paths.find((p) => p.toLowerCase().endsWith('.txt'));
    if (txt) {
      error(
        `${key}: ${txt} is a list file; point ${key}: at the folder of images instead (for example images/${key === 'validation' ? 'val' : key}).`,
        lineOf(key),
      );
      return 'invalid';
    }
    return paths;
  };
  const train = splitValue('train');
  const val = splitValue('val') ?? splitValue('validation');
  const test = splitValue('test');
  if (train === null) error(`${name} has no train: entry. Add one, for example train: images/train.`);
  if (val === null) error(`${name} has no val: entry. ultralytics needs it; add one, for example val: images/val (it may point at the train folder).`);
  const pathKey = typeof data.path === 'string' ? data.path : null;

  // pose
  let kptShape: [number, number] | null = null;
  if (task === 'pose') {
    const raw = data.kpt_shape;
    if (Array.isArray(raw) && raw.length === 2 && Number.isInteger(raw[0]) && raw[0] > 0 && (raw[1] === 2 || raw[1] === 3)) kptShape = [raw[0], raw[1]];
    else error('kpt_shape: a pose dataset needs kpt_shape: [keypoints, 2 or 3], for example kpt_shape: [17, 3].', lineOf('kpt_shape'));
  }

  if (
    issues.some((i) => i.severity === 'error') ||
    !names ||
    train === null ||
    train === 'invalid' ||
    val === null ||
    val === 'invalid' ||
    test === 'invalid'
  ) {
    return { config: null, issues };
  }
  return {
    config: { names, nc: names.length, splits: { path: pathKey, train, val, ...(test ? { test } : {}) }, kptShape },
    issues,
  };
}

// ---------------------------------------------------------------------------------------------
// label files

export interface LabelSchema {
  task: DatasetTask;
  /** Number of classes; class ids must be 0..nc-1. */
  nc: number;
  kptShape?: [number, number] | null;
  /** Findings kept per file before they are summarised, so one broken file cannot flood the report. */
  maxIssuesPerFile?: number;
}

export interface ParsedLabels {
  /** Valid rows in NDJSON annotation form (see `LabelRow`), duplicates removed, coordinates clamped to 0..1. */
  rows: LabelRow[];
  issues: Issue[];
  /** Rows by shape, to spot a dataset labelled for another task. */
  shapes: { boxes: number; polygons: number; other: number };
}

/**
 * Coordinates may stray 1 % outside 0..1: ultralytics allows that much (`verify_image_label`), and
 * exporters round. Values are clamped into 0..1 in the rows we return so no trainer rejects them.
 */
const TOLERANCE = 0.01;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export function parseLabelFile(text: string, file: string, schema: LabelSchema): ParsedLabels {
  const { task, nc } = schema;
  const maxIssues = schema.maxIssuesPerFile ?? 20;
  const issues: Issue[] = [];
  let suppressed = 0;
  const report = (code: string, message: string, line: number) => {
    if (issues.length < maxIssues) issues.push(issue('error', code, message, file, line));
    else suppressed++;
  };
  const rows: LabelRow[] = [];
  const seen = new Set<string>();
  const shapes = { boxes: 0, polygons: 0, other: 0 };
  let duplicates = 0;
  const [nk, nd] = schema.kptShape ?? [0, 0];

  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1;
    const line = lines[i].trim();
    if (line === '') continue;
    const tokens = line.split(/\s+/);
    const n = tokens.length;
    if (n === 5) shapes.boxes++;
    else if (n >= 7 && (n - 1) % 2 === 0) shapes.polygons++;
    else shapes.other++;

    const countProblem = expectedCount(task, n, nk, nd);
    if (countProblem) {
      report(ProcessingCode.LabelValueCount, countProblem, lineNo);
      continue;
    }
    const bad = tokens.findIndex((t) => !NUMBER.test(t));
    if (bad !== -1) {
      report(ProcessingCode.LabelNotANumber, `Value ${bad + 1} ("${tokens[bad].slice(0, 40)}") is not a number.`, lineNo);
      continue;
    }
    const values = tokens.map(Number);
    const cls = values[0];
    if (!Number.isInteger(cls) || cls < 0 || cls >= nc) {
      report(
        ProcessingCode.LabelClassId,
        Number.isInteger(cls) && cls >= 0
          ? `Class id ${cls} does not exist: the dataset defines ${nc} ${nc === 1 ? 'class' : 'classes'} (ids 0-${nc - 1}).`
          : `Class id "${tokens[0]}" must be a whole number from 0 to ${nc - 1}.`,
        lineNo,
      );
      continue;
    }
    const outOfRange = findOutOfRange(task, values, nd);
    if (outOfRange !== null) {
      const v = values[outOfRange];
      report(
        ProcessingCode.LabelOutOfRange,
        `Value ${outOfRange + 1} (${columnName(task, outOfRange, n, nd)}) is ${tokens[outOfRange]}, outside 0..1. Coordinates must be normalised by the image width and height${v > 2 ? ' (pixel coordinates?)' : ''}.`,
        lineNo,
      );
      continue;
    }
    const key = values.join(' ');
    if (seen.has(key)) {
      duplicates++;
      continue;
    }
    seen.add(key);
    rows.push(toRow(task, values, nd));
  }
  if (suppressed > 0)
    issues.push(issue('error', issues[issues.length - 1]?.code ?? ProcessingCode.LabelValueCount, `… and ${suppressed} more problems in this file.`, file));
  if (duplicates > 0) {
    // ultralytics drops exact duplicates with a warning; we do the same so stats agree with training.
    issues.push(issue('warning', ProcessingCode.LabelDuplicateRow, `${duplicates} duplicate ${duplicates === 1 ? 'row was' : 'rows were'} removed.`, file));
  }
  return { rows, issues, shapes };
}

function expectedCount(task: DatasetTask, n: number, nk: number, nd: number): string | null {
  switch (task) {
    case 'detect':
      if (n === 5 || (n >= 7 && (n - 1) % 2 === 0)) return null;
      return `Expected 5 values (class x_center y_center width height), found ${n}.`;
    case 'segment':
      if (n >= 7 && (n - 1) % 2 === 0) return null;
      if (n === 5)
        return 'Found 5 values, a detection box; a segment label is a class followed by a polygon (x1 y1 x2 y2 x3 y3 ...). Is the dataset task right?';
      return `Expected a class followed by at least 3 polygon points (an even number of at least 6 coordinates), found ${n} values.`;
    case 'obb':
      if (n === 9) return null;
      return `Expected 9 values (class x1 y1 x2 y2 x3 y3 x4 y4), found ${n}.`;
    case 'pose': {
      const want = 5 + nk * nd;
      if (n === want) return null;
      return `Expected ${want} values (class, box x_center y_center width height, then ${nk} keypoints of ${nd} values), found ${n}.`;
    }
    case 'classify':
      return 'Classification datasets take labels from folder names; label files are not used.';
  }
}

/** Index of the first value outside range, or null. Visibility flags of pose keypoints are not coordinates. */
function findOutOfRange(task: DatasetTask, values: number[], nd: number): number | null {
  for (let i = 1; i < values.length; i++) {
    const v = values[i];
    const isVisibility = task === 'pose' && i >= 5 && nd === 3 && (i - 5) % 3 === 2;
    if (!Number.isFinite(v)) return i;
    if (v < -TOLERANCE) return i;
    if (!isVisibility && v > 1 + TOLERANCE) return i;
  }
  return null;
}

function columnName(task: DatasetTask, i: number, n: number, nd: number): string {
  const box = ['x_center', 'y_center', 'width', 'height'];
  if ((task === 'pose' || (task === 'detect' && n === 5)) && i <= 4) return box[i - 1];
  if (task === 'pose') return `keypoint ${Math.floor((i - 5) / nd) + 1} ${['x', 'y', 'visibility'][(i - 5) % nd]}`;
  return `point ${Math.floor((i - 1) / 2) + 1} ${(i - 1) % 2 === 0 ? 'x' : 'y'}`;
}

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));

function toRow(task: DatasetTask, values: number[], nd: number): LabelRow {
  const cls = values[0];
  if (task === 'detect' && values.length > 5) {
    // A polygon in a detect dataset: ultralytics trains on its bounding box (segments2boxes).
    let x1 = 1,
      y1 = 1,
      x2 = 0,
      y2 = 0;
    for (let i = 1; i < values.length; i += 2) {
      const x = clamp01(values[i]);
      const y = clamp01(values[i + 1]);
      x1 = Math.min(x1, x);
      x2 = Math.max(x2, x);
      y1 = Math.min(y1, y);
      y2 = Math.max(y2, y);
    }
    return [cls, (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1];
  }
  return values.map((v, i) => {
    if (i === 0) return v;
    if (task === 'pose' && i >= 5 && nd === 3 && (i - 5) % 3 === 2) return v;
    return clamp01(v);
  });
}

/**
 * One line for a dataset whose labels all have the shape of another task, which otherwise shows up
 * as thousands of identical per-line errors.
 */
export function taskMismatchHint(task: DatasetTask, shapes: ParsedLabels['shapes']): Issue | null {
  if (task === 'segment' && shapes.boxes > 0 && shapes.polygons === 0 && shapes.other === 0) {
    return issue(
      'error',
      ProcessingCode.TaskMismatch,
      'Every label is a 5-value box, which is a detection dataset, but the dataset task is segment. Change the task to detect, or upload polygon labels.',
    );
  }
  if (task === 'obb' && shapes.boxes > 0 && shapes.other === 0) {
    return issue(
      'error',
      ProcessingCode.TaskMismatch,
      'The labels are 5-value boxes, which is a detection dataset, but the dataset task is obb (9 values per row). Change the task to detect.',
    );
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// report

/**
 * The report as the contract declares it (`DatasetReport`): listed errors and warnings in the
 * order found, totals including the entries not listed, how many were left out by the cap, and a
 * count per code over everything found.
 */
export type ProcessingReport = DatasetReport;

/** Collects findings with a cap per list, so a dataset with a million bad lines still yields a small report. */
export class ReportBuilder {
  private readonly errors: ReportEntry[] = [];
  private readonly warnings: ReportEntry[] = [];
  private errorCount = 0;
  private warningCount = 0;
  private readonly counts: Record<string, number> = {};
  private readonly leftOut: LeftOutEntry[] = [];
  private leftOutCount = 0;

  constructor(private readonly limit = 1000) {}

  add(found: Issue | readonly Issue[]): void {
    for (const one of Array.isArray(found) ? (found as readonly Issue[]) : [found as Issue]) {
      const { severity, ...entry } = one;
      this.counts[entry.code] = (this.counts[entry.code] ?? 0) + 1;
      if (severity === 'error') {
        this.errorCount++;
        if (this.errors.length < this.limit) this.errors.push(entry);
      } else {
        this.warningCount++;
        if (this.warnings.length < this.limit) this.warnings.push(entry);
      }
    }
  }

  /** Puts a finding at the top of its list: the one fatal error, or a summary that explains many lines. */
  addFirst(found: Issue): void {
    const { severity, ...entry } = found;
    this.counts[entry.code] = (this.counts[entry.code] ?? 0) + 1;
    const list = severity === 'error' ? this.errors : this.warnings;
    if (severity === 'error') this.errorCount++;
    else this.warningCount++;
    list.unshift(entry);
    if (list.length > this.limit) list.pop();
  }

  /** A pair left out (ADR 0029): listed apart from errors, since it does not fail the dataset. */
  leave(entry: LeftOutEntry): void {
    this.counts[entry.code] = (this.counts[entry.code] ?? 0) + 1;
    this.leftOutCount++;
    if (this.leftOut.length < this.limit) this.leftOut.push(entry);
  }

  get leftOutTotal(): number {
    return this.leftOutCount;
  }

  get hasErrors(): boolean {
    return this.errorCount > 0;
  }

  toReport(): ProcessingReport {
    return {
      errors: [...this.errors],
      warnings: [...this.warnings],
      errorCount: this.errorCount,
      warningCount: this.warningCount,
      omittedErrors: this.errorCount - this.errors.length,
      omittedWarnings: this.warningCount - this.warnings.length,
      countsByCode: { ...this.counts },
      leftOut: [...this.leftOut],
      leftOutCount: this.leftOutCount,
      omittedLeftOut: this.leftOutCount - this.leftOut.length,
    };
  }
}

/** A plain-text rendering of the report for the "download report" button. */
export function reportToText(report: ProcessingReport, options: { title?: string } = {}): string {
  const out: string[] = [];
  out.push(options.title ?? 'Dataset check report');
  const verdict = report.errorCount > 0 ? 'FAILED' : 'PASSED';
  const left = report.leftOutCount ?? 0;
  out.push(
    `Result: ${verdict}: ${plural(report.errorCount, 'error')}, ${plural(report.warningCount, 'warning')}${left ? `, ${plural(left, 'image')} left out` : ''}.`,
  );
  if (report.errorCount > 0) out.push('Fix the errors below and upload the archive again. Warnings do not stop processing.');
  const section = (title: string, entries: ReportEntry[], omitted: number) => {
    if (entries.length === 0) return;
    out.push('', `${title}:`);
    for (const e of entries) {
      const where = e.file ? `${e.file}${e.line ? `:${e.line}` : ''}` : '(dataset)';
      out.push(`  ${where}  [${e.code}]  ${e.message.replace(/\n/g, '\n    ')}`);
    }
    if (omitted > 0) out.push(`  … and ${omitted} more not listed.`);
  };
  section('Errors', report.errors, report.omittedErrors);
  if (report.leftOut && report.leftOut.length > 0) {
    out.push('', 'Left out (image + label pairs ultralytics would drop):');
    for (const e of report.leftOut)
      out.push(
        `  ${e.image}  [${e.code}]  ${e.file && e.file !== e.image ? `${e.file}${e.line ? `:${e.line}` : ''}: ` : ''}${e.message.replace(/\n/g, '\n    ')}`,
      );
    if ((report.omittedLeftOut ?? 0) > 0) out.push(`  … and ${report.omittedLeftOut} more not listed.`);
  }
  section('Warnings', report.warnings, report.omittedWarnings);
  const codes = Object.entries(report.countsByCode).sort((a, b) => b[1] - a[1]);
  if (codes.length > 0) {
    out.push('', 'Counts by code:');
    for (const [code, n] of codes) out.push(`  ${code}: ${n}`);
  }
  return `${out.join('\n')}\n`;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
