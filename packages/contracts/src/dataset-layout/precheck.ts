/**
 * The whole dataset check on random-access bytes (ADR 0029), for the browser before upload: layout,
 * task, yaml, then every image + label pair through `inspectImageBytes` and `verifyImageLabel` — the
 * functions the server's processing calls on the same bytes — so the list of left-out pairs the user
 * sees before uploading is the list the server's report will hold.
 *
 * Bounded cost: label files and the yaml are read whole (small, and capped), images only by their
 * first and last bytes (`IMAGE_HEAD_FIRST`/`IMAGE_TAIL_FIRST`, more only when the rule asks, never
 * past `IMAGE_HEAD_MAX`/`IMAGE_TAIL_MAX`).
 */
import { ProcessingCode } from './errors.js';
import { IMAGE_HEAD_FIRST, IMAGE_TAIL_FIRST, inspectImageBytes, type ImageSample, type ImageVerdict } from './image-bytes.js';
import {
  detectLayout,
  indexEntries,
  resolveLayout,
  summarizeLayout,
  taskFromLayout,
  type LayoutEntryInput,
  type LayoutSummary,
  type YamlSplitPaths,
} from './layout.js';
import { decodeLabelText, labelNotText, verifyImageLabel, type PairLabel } from './pair.js';
import { extname } from './paths.js';
import { issue, SPLITS, type DatasetTask } from './types.js';
import { MAX_YAML_CHARS, parseDatasetYaml, ReportBuilder, taskMismatchHint, type ParsedLabels, type ProcessingReport } from './validate.js';

/** Largest label file read (bytes), as the server's `maxTextBytes`. */
export const MAX_LABEL_BYTES = 16 * 1024 * 1024;

export interface PrecheckSource {
  /** Entries with safe, normalised names (see `normalizeEntryName`). */
  entries: readonly (LayoutEntryInput & { size: number })[];
  /** A whole (small) entry, or null when it cannot be read here. */
  readWhole(name: string): Promise<Uint8Array | null>;
  /**
   * The first `head` and last `tail` bytes of an entry. When the end cannot be reached cheaply (a large
   * compressed entry) the sample says `endUnknown` and the end-marker checks are skipped for it.
   */
  readSample(name: string, head: number, tail: number): Promise<ImageSample | null>;
}

export interface PrecheckResult {
  /** The task the archive is checked as: the one asked for, or `classify` for a classification layout. */
  task: DatasetTask;
  /** The task was taken from the archive (it differs from the one asked for). */
  taskPicked: boolean;
  fatal: { code: string; message: string; file?: string } | null;
  layout: LayoutSummary | null;
  report: ProcessingReport;
  /** Pairs kept, per split. */
  usable: Partial<Record<'train' | 'val' | 'test', number>>;
  /** Images whose end could not be read (large compressed entries): their end markers were not checked. */
  endUnchecked: number;
}

export async function precheckArchive(
  source: PrecheckSource,
  requestedTask: DatasetTask,
  onProgress?: (done: number, total: number) => void,
): Promise<PrecheckResult> {
  const report = new ReportBuilder(1000);
  let task = requestedTask;
  let taskPicked = false;
  let layout: LayoutSummary | null = null;
  const usable: PrecheckResult['usable'] = {};
  let endUnchecked = 0;
  const finish = (fatal: PrecheckResult['fatal']): PrecheckResult => {
    if (fatal) report.addFirst(issue('error', fatal.code, fatal.message, fatal.file));
    return { task, taskPicked, fatal, layout, report: report.toReport(), usable, endUnchecked };
  };

  const sizes = new Map(source.entries.map((e) => [e.name, e.size]));
  const index = indexEntries(source.entries);
  if (task !== 'classify' && taskFromLayout(index) === 'classify') {
    report.add(
      issue(
        'warning',
        ProcessingCode.TaskPicked,
        `The archive is a classification dataset (<split>/<class>/<image>), so the dataset's task was changed from ${task} to classify.`,
      ),
    );
    task = 'classify';
    taskPicked = true;
  }
  const detected = detectLayout(index, { task });
  if (!detected.ok) return finish(detected.error);

  let names: string[] = [];
  let yamlPaths: YamlSplitPaths | undefined;
  let kptShape: [number, number] | null = null;
  if (detected.layout.yamlPath) {
    const file = detected.layout.yamlPath;
    if ((sizes.get(file) ?? 0) > MAX_YAML_CHARS * 4)
      return finish({
        code: ProcessingCode.YamlInvalid,
        message: `${file} is ${sizes.get(file)} bytes; a dataset yaml holds a few lines (the limit is ${MAX_YAML_CHARS}).`,
        file,
      });
    const bytes = await source.readWhole(file);
    const text = bytes ? (decodeLabelText(bytes) ?? latin1(bytes)) : '';
    const parsed = parseDatasetYaml(text, { file, task });
    const firstError = parsed.issues.find((i) => i.severity === 'error');
    if (!parsed.config) {
      report.add(parsed.issues.filter((i) => i !== firstError));
      const first = firstError ?? issue('error', ProcessingCode.YamlInvalid, `${file} could not be read.`, file);
      return finish({ code: first.code, message: first.message, ...(first.file ? { file: first.file } : {}) });
    }
    report.add(parsed.issues);
    names = parsed.config.names;
    yamlPaths = parsed.config.splits;
    kptShape = parsed.config.kptShape;
  }
  const resolved = resolveLayout(index, detected.layout, yamlPaths);
  if (!resolved.ok) return finish(resolved.error);
  const dataset = resolved.layout;
  layout = summarizeLayout(dataset);
  report.add(dataset.issues);
  if (dataset.kind === 'classify') names = dataset.classNames ?? [];

  const schema = { task, nc: names.length, kptShape };
  const shapes: ParsedLabels['shapes'] = { boxes: 0, polygons: 0, other: 0 };
  const all = SPLITS.flatMap((split) => (dataset.splits[split]?.images ?? []).map((image) => ({ split, image })));
  let done = 0;
  for (const { split, image } of all) {
    let label: PairLabel = null;
    if (image.classIndex === null && image.label) {
      const size = sizes.get(image.label) ?? 0;
      if (size > MAX_LABEL_BYTES) {
        label = {
          file: image.label,
          problem: issue(
            'error',
            ProcessingCode.LabelTooLarge,
            `The label file is larger than ${MAX_LABEL_BYTES} bytes; label files hold a few lines of numbers.`,
            image.label,
          ),
        };
      } else {
        const bytes = await source.readWhole(image.label);
        const text = bytes ? decodeLabelText(bytes) : null;
        label = text === null ? (bytes ? { file: image.label, problem: labelNotText(image.label) } : null) : { file: image.label, text };
      }
    }
    const verdict = await verdictOf(source, image.entry, sizes.get(image.entry) ?? 0, () => endUnchecked++);
    const pair = verifyImageLabel({ image: image.entry, verdict, label, schema });
    shapes.boxes += pair.shapes.boxes;
    shapes.polygons += pair.shapes.polygons;
    shapes.other += pair.shapes.other;
    if (pair.keep) {
      report.add(pair.warnings);
      usable[split] = (usable[split] ?? 0) + 1;
    } else report.leave(pair.leftOut!);
    done++;
    if (done % 50 === 0) onProgress?.(done, all.length);
  }
  onProgress?.(all.length, all.length);
  const hint = taskMismatchHint(task, shapes);
  if (hint) report.addFirst(hint);
  else if (!usable.train && dataset.splits.train && report.leftOutTotal > 0) {
    const left = report.leftOutTotal;
    return finish({
      code: ProcessingCode.NothingUsable,
      message: `None of the train images can be used: all ${left} ${left === 1 ? 'pair was' : 'pairs were'} left out (see the list of left-out images for why).`,
    });
  }
  return finish(null);
}

/** Asks the rule, reading more of the image only when it says so. */
async function verdictOf(source: PrecheckSource, name: string, size: number, endSkipped: () => void): Promise<ImageVerdict> {
  let head = Math.min(size, IMAGE_HEAD_FIRST);
  let tail = Math.min(size, IMAGE_TAIL_FIRST);
  for (let round = 0; round < 8; round++) {
    const sample = await source.readSample(name, head, tail);
    if (!sample)
      return {
        ok: false,
        format: null,
        width: null,
        height: null,
        restored: false,
        issues: [issue('error', ProcessingCode.CorruptEntry, 'The image could not be read from the archive.', name)],
      };
    const verdict = inspectImageBytes(sample, name, extname(name));
    if (!verdict.needMore) {
      if (sample.endUnknown) endSkipped();
      return verdict;
    }
    head = verdict.needMore.head;
    tail = verdict.needMore.tail;
  }
  return {
    ok: true,
    format: null,
    width: null,
    height: null,
    restored: false,
    issues: [issue('warning', ProcessingCode.ImageUnverified, 'The image header could not be checked here; it is kept as is.', name)],
  };
}

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}
