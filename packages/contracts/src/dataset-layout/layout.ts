/**
 * Works out how a dataset archive is organised from its entry names alone, so that the same code can
 * run in the browser on a zip's central directory before the upload starts. Pure: no Node imports.
 *
 * Two steps, because the yaml's contents decide the split folders and only the caller can read it:
 * 1. `detectLayout(entries, {task})` finds the dataset root, the yaml and the kind of layout;
 * 2. `resolveLayout(entries, detected, yamlPaths?)` lists each split's images and their label files.
 *
 * Accepted: HUB's `name/name.yaml` or `name/data.yaml`, the same at the archive root, any layout inside
 * one wrapping folder, Roboflow's `train|valid|test/{images,labels}` with `../train/images` style yaml
 * paths, YOLO `images/<split>` + `labels/<split>`, and classification `<split>/<class>/<image>` (no yaml;
 * classes are the train folder names in alphabetical order, as ultralytics does).
 */
import { DatasetProcessingError, ProcessingCode } from './errors.js';
import { basename, dirname, extname, isJunk, join, resolvePath, stem } from './paths.js';
import { IGNORED_IMAGE_EXTENSIONS, IMAGE_EXTENSIONS, issue, SPLITS, type DatasetTask, type Issue, type Split } from './types.js';

export type LayoutKind = 'yolo' | 'roboflow' | 'classify';

/** What `detectLayout` needs of an entry; a browser zip listing fits. */
export interface LayoutEntryInput {
  name: string;
  isDirectory: boolean;
}

/**
 * Entries as a table read by position (ADR 0042): the server's archive listing keeps its names in one
 * byte pool and makes a name string when asked, so that the layout code holds no string per entry.
 * An array of `LayoutEntryInput` is read through the same accessors.
 */
export interface LayoutEntryTable {
  readonly count: number;
  name(position: number): string;
  isDirectory(position: number): boolean;
}

/** Anything the layout functions take: entries, a table of them, or the index made from either. */
export type LayoutEntries = readonly LayoutEntryInput[] | LayoutEntryTable | EntryIndex;

export interface DetectedLayout {
  kind: LayoutKind;
  /** Folder holding the dataset, `''` for the archive root. */
  root: string;
  /** The dataset yaml for yolo and roboflow layouts; null for classify. */
  yamlPath: string | null;
  /** Tasks this layout can hold. Which detection-style task it really is only the labels tell. */
  tasks: DatasetTask[];
  /** One sentence saying what was found, for the report and the upload dialog. */
  description: string;
  /** Non-fatal findings of this step (an ignored yaml, say). */
  issues: Issue[];
}

export interface LayoutImage {
  /** Archive entry name. */
  entry: string;
  /** File name without folders: the image's name inside its split. */
  name: string;
  /** Label entry for yolo layouts when the archive has it; null when the image is unlabelled. */
  label: string | null;
  /** Where ultralytics would look for the label (yolo layouts), for messages. */
  expectedLabel: string | null;
  /** Classify: index into `classNames` (the class folder). */
  classIndex: number | null;
}

export interface SplitLayout {
  /** Folders the split's images come from. */
  dirs: string[];
  images: LayoutImage[];
}

export interface DatasetLayout extends DetectedLayout {
  splits: Partial<Record<Split, SplitLayout>>;
  /** Classify: class folder names, alphabetical. Yolo layouts take names from the yaml instead. */
  classNames: string[] | null;
  /** Label files matching no image, all splits together. */
  orphanLabels: string[];
}

/** A split's images as positions in the index's entries (`resolveLayoutPositions`, ADR 0042). */
export interface SplitPositions {
  /** Folders the split's images come from. */
  dirs: string[];
  /** Each image's entry position, in the order `SplitLayout.images` lists them. */
  positions: Int32Array;
  /** Yolo layouts: each image's label file position, -1 when the archive has none; null for classify. */
  labels: Int32Array | null;
  /** Classify: each image's class index; null for yolo layouts. */
  classes: Int32Array | null;
}

export interface DatasetPositions extends DetectedLayout {
  splits: Partial<Record<Split, SplitPositions>>;
  classNames: string[] | null;
  orphanLabels: string[];
}

/** Split paths as written in the dataset yaml (see `parseDatasetYaml`). */
export interface YamlSplitPaths {
  path?: string | null;
  train?: string[];
  val?: string[];
  test?: string[];
}

export interface LayoutError {
  code: string;
  message: string;
  file?: string;
}
export type LayoutResult<T> = { ok: true; layout: T } | { ok: false; error: LayoutError };

// ---------------------------------------------------------------------------------------------
// the index: every folder and its direct children, built once per archive

/**
 * A folder: its subfolders by full path, and its files as a range of `EntryIndex.fileOrder`
 * (positions of its files in the entry list, in entry order).
 */
interface DirNode {
  id: number;
  dirs: Set<string>;
  start: number;
  count: number;
}

/**
 * The entries as folders and a name table (ADR 0042): names are read from the entries given, never
 * copied; each folder's files are a range of one typed array of entry positions, and files are found
 * by name through an open-addressing table of positions. Per entry the JS heap holds nothing new, so
 * an archive of 100,000s of images grows no young generation here.
 */
export interface EntryIndex {
  readonly table: LayoutEntryTable;
  readonly dirs: Map<string, DirNode>;
  /** Per entry: its folder's id, or -1 for entries left out (folders, junk, empty names). */
  readonly dirOf: Int32Array;
  /** Positions of the files, grouped by folder (each folder's a range, in entry order). */
  readonly fileOrder: Int32Array;
  readonly fileCount: number;
  readonly imageCount: number;
  /** Open-addressing table of file positions by name (`findFile`); a later entry of a name wins. */
  readonly slots: Int32Array;
  readonly slotHashes: Int32Array;
}

/**
 * Builds the folder tree once; `detectLayout` and `resolveLayout` accept either entries or the index
 * so that large archives are indexed a single time.
 */
export function indexEntries(entries: LayoutEntries): EntryIndex {
  if ('dirOf' in entries) return entries;
  const table: LayoutEntryTable = Array.isArray(entries) ? tableOf(entries) : (entries as LayoutEntryTable);
  const dirs = new Map<string, DirNode>();
  const nodes: DirNode[] = [];
  const ensureDir = (dir: string): DirNode => {
    let node = dirs.get(dir);
    if (node) return node;
    node = { id: nodes.length, dirs: new Set(), start: 0, count: 0 };
    dirs.set(dir, node);
    nodes.push(node);
    if (dir !== '') ensureDir(dirname(dir)).dirs.add(dir);
    return node;
  };
  ensureDir('');
  const count = table.count;
  const dirOf = new Int32Array(count).fill(-1);
  let fileCount = 0;
  let imageCount = 0;
  let lastDir = '';
  let lastNode = nodes[0];
  for (let i = 0; i < count; i++) {
    const name = table.name(i);
    if (name === '' || isJunk(name)) continue;
    if (table.isDirectory(i)) {
      ensureDir(name);
      continue;
    }
    // The folder of the previous file, most of the time: no dirname copy then.
    const slash = name.lastIndexOf('/');
    if ((slash === -1 ? 0 : slash) !== lastDir.length || !name.startsWith(lastDir) || (slash === -1) !== (lastDir === '')) {
      lastDir = dirname(name);
      lastNode = ensureDir(lastDir);
    }
    lastNode.count++;
    dirOf[i] = lastNode.id;
    fileCount++;
    if (isImage(name)) imageCount++;
  }
  // Each folder's files as one range, in entry order (a counting sort by folder).
  const cursor = new Int32Array(nodes.length);
  let at = 0;
  for (const node of nodes) {
    node.start = at;
    cursor[node.id] = at;
    at += node.count;
  }
  const fileOrder = new Int32Array(fileCount);
  let size = 16;
  while (size < fileCount * 2) size *= 2;
  const slots = new Int32Array(size).fill(-1);
  const slotHashes = new Int32Array(size);
  const index: EntryIndex = { table, dirs, dirOf, fileOrder, fileCount, imageCount, slots, slotHashes };
  for (let i = 0; i < count; i++) {
    const dir = dirOf[i];
    if (dir === -1) continue;
    fileOrder[cursor[dir]++] = i;
    const name = table.name(i);
    const hash = hashOf(name, 0);
    let slot = hash & (size - 1);
    while (slots[slot] !== -1 && !(slotHashes[slot] === hash && table.name(slots[slot]) === name)) slot = (slot + 1) & (size - 1);
    slots[slot] = i;
    slotHashes[slot] = hash;
  }
  return index;
}

const tableOf = (list: readonly LayoutEntryInput[]): LayoutEntryTable => ({
  count: list.length,
  name: (position) => list[position].name,
  isDirectory: (position) => list[position].isDirectory,
});

/** FNV-1a over the UTF-16 code units of `text` from `from` on. */
function hashOf(text: string, from: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h | 0;
}

/** The position of the file named `name` (a later entry of the name wins), or -1. */
export function findFile(index: EntryIndex, name: string): number {
  const mask = index.slots.length - 1;
  const hash = hashOf(name, 0);
  for (let slot = hash & mask; index.slots[slot] !== -1; slot = (slot + 1) & mask) {
    if (index.slotHashes[slot] === hash && index.table.name(index.slots[slot]) === name) return index.slots[slot];
  }
  return -1;
}

const nameAt = (index: EntryIndex, position: number): string => index.table.name(position);

/** The names of a folder's own files, in entry order. */
function filesOf(index: EntryIndex, node: DirNode | undefined): string[] {
  const out: string[] = [];
  if (node) for (let k = node.start; k < node.start + node.count; k++) out.push(nameAt(index, index.fileOrder[k]));
  return out;
}

function someFile(index: EntryIndex, node: DirNode | undefined, test: (name: string) => boolean): boolean {
  if (node) for (let k = node.start; k < node.start + node.count; k++) if (test(nameAt(index, index.fileOrder[k]))) return true;
  return false;
}

export const isImage = (name: string): boolean => {
  // Asked of every entry, some twice: an ASCII suffix of up to 4 letters is compared as a number,
  // without a suffix string (ADR 0042); other suffixes go through `extname`.
  const dot = name.lastIndexOf('.');
  if (dot <= name.lastIndexOf('/') + 1) return false;
  const length = name.length - dot - 1;
  if (length > 4) return IMAGE_EXTENSIONS.has(extname(name));
  let code = 0;
  for (let i = dot + 1; i < name.length; i++) {
    let c = name.charCodeAt(i);
    if (c >= 0x80) return IMAGE_EXTENSIONS.has(extname(name));
    if (c >= 0x41 && c <= 0x5a) c |= 0x20;
    code = code * 256 + c;
  }
  return IMAGE_EXTENSION_CODES.has(code);
};
/** `IMAGE_EXTENSIONS` of up to 4 letters as `isImage` packs them: one byte per letter. */
const IMAGE_EXTENSION_CODES: ReadonlySet<number> = new Set(
  [...IMAGE_EXTENSIONS].filter((e) => e.length <= 4).map((e) => [...e].reduce((code, c) => code * 256 + c.charCodeAt(0), 0)),
);
const isYaml = (name: string): boolean => {
  const ext = extname(name);
  return ext === 'yaml' || ext === 'yml';
};

/** Folder names that are part of a layout, so never a wrapper to look through. */
const STRUCTURAL = new Set(['images', 'labels', 'train', 'val', 'valid', 'validation', 'test']);
const SPLIT_ALIASES: Record<Split, string[]> = { train: ['train'], val: ['val', 'valid', 'validation'], test: ['test'] };

function splitOfFolder(name: string): Split | null {
  const lower = name.toLowerCase();
  for (const split of SPLITS) if (SPLIT_ALIASES[split].includes(lower)) return split;
  return null;
}

function childDir(index: EntryIndex, parent: string, name: string): string | null {
  const node = index.dirs.get(parent);
  if (!node) return null;
  for (const dir of node.dirs) if (basename(dir).toLowerCase() === name) return dir;
  return null;
}

/** Calls `visit` with the position of every file under `dir`: its own, then each subfolder's in name order. */
function forEachFileUnder(index: EntryIndex, dir: string, visit: (position: number) => void): void {
  const node = index.dirs.get(dir);
  if (!node) return;
  for (let k = node.start; k < node.start + node.count; k++) visit(index.fileOrder[k]);
  for (const sub of [...node.dirs].sort()) forEachFileUnder(index, sub, visit);
}

/** How many files `forEachFileUnder` visits. */
function countFilesUnder(index: EntryIndex, dir: string): number {
  const node = index.dirs.get(dir);
  if (!node) return 0;
  let n = node.count;
  for (const sub of node.dirs) n += countFilesUnder(index, sub);
  return n;
}

const quote = (path: string) => (path === '' ? 'the archive root' : `"${path}/"`);

/** A short listing of a folder, for error messages that say what was found. */
function describeFolder(index: EntryIndex, dir: string): string {
  const node = index.dirs.get(dir);
  if (!node) return 'nothing';
  const dirs = [...node.dirs].map((d) => `${basename(d)}/`).sort();
  const files = filesOf(index, node).map(basename).sort();
  const all = [...dirs, ...files];
  if (all.length === 0) return 'an empty folder';
  return all.slice(0, 12).join(', ') + (all.length > 12 ? ` and ${all.length - 12} more` : '');
}

// ---------------------------------------------------------------------------------------------
// step 1

/**
 * Finds the dataset root, the yaml and the layout kind. `task` (the dataset's task) decides between a
 * detection-style and a classification layout when an archive could be read either way, and turns a
 * mismatch into a clear `dataset/task-mismatch` instead of a confusing list of missing labels.
 */
export function detectLayout(entries: LayoutEntries, options: { task?: DatasetTask } = {}): LayoutResult<DetectedLayout> {
  const index = indexEntries(entries);
  const task = options.task;
  if (index.imageCount === 0) {
    let ignored = 0;
    for (let i = 0; i < index.table.count; i++) if (index.dirOf[i] !== -1 && IGNORED_IMAGE_EXTENSIONS.has(extname(nameAt(index, i)))) ignored++;
    return fail(
      ProcessingCode.NoImages,
      `The archive holds no images${ignored ? ` (${ignored} files in formats ultralytics does not train on)` : ''}. Supported formats: ${[...IMAGE_EXTENSIONS].join(', ')}. Found at the top: ${describeFolder(index, '')}.`,
    );
  }

  const root = findRoot(index);
  const yamls = filesOf(index, index.dirs.get(root)).filter(isYaml);
  let yamlPath: string | null = null;
  if (yamls.length === 1) yamlPath = yamls[0];
  else if (yamls.length > 1) {
    const preferred = yamls.find((y) => /^data\.ya?ml$/i.test(basename(y))) ?? yamls.find((y) => root !== '' && stem(y) === basename(root));
    if (!preferred) {
      return fail(
        ProcessingCode.AmbiguousYaml,
        `Found ${yamls.length} yaml files in ${quote(root)} (${yamls.map(basename).join(', ')}) and cannot tell which describes the dataset. Name it data.yaml or remove the others.`,
      );
    }
    yamlPath = preferred;
  }

  const rootName = root === '' ? 'the archive root' : `"${root}/"`;
  const classifyLike = looksClassify(index, root);
  const roboflowLike = SPLITS.some((s) =>
    SPLIT_ALIASES[s].some((a) => {
      const dir = childDir(index, root, a);
      return dir !== null && childDir(index, dir, 'images') !== null;
    }),
  );
  const yoloLike = childDir(index, root, 'images') !== null || childDir(index, root, 'labels') !== null;
  const detectionTasks: DatasetTask[] = ['detect', 'segment', 'pose', 'obb'];

  if (task === 'classify' || (task === undefined && !yamlPath && classifyLike)) {
    if (classifyLike) {
      const issues: Issue[] = [];
      if (yamlPath)
        issues.push(
          issue(
            'warning',
            ProcessingCode.YamlIgnored,
            `${basename(yamlPath)} is ignored: classification datasets take their classes from the folder names.`,
            yamlPath,
          ),
        );
      const splitNames = index.dirs.get(root)?.dirs ?? new Set<string>();
      const found = [...splitNames]
        .map(basename)
        .filter((n) => splitOfFolder(n))
        .sort();
      return {
        ok: true,
        layout: {
          kind: 'classify',
          root,
          yamlPath: null,
          tasks: ['classify'],
          description: `Classification layout in ${rootName}: ${found.join(', ')} folders holding one folder per class.`,
          issues,
        },
      };
    }
    if (yamlPath || roboflowLike || yoloLike) {
      return fail(
        ProcessingCode.TaskMismatch,
        `The archive has a detection-style layout (${yamlPath ? basename(yamlPath) : 'images/ and labels/ folders'} in ${rootName}), but the dataset's task is classify. Classification expects <split>/<class>/<image>, for example train/cat/001.jpg, with no yaml. Change the task or the archive.`,
      );
    }
    return fail(
      ProcessingCode.UnknownLayout,
      `Cannot find a classification layout in ${rootName}. Expected train/ (and val/, test/) folders each holding one folder per class, for example train/cat/001.jpg. Found: ${describeFolder(index, root)}.`,
    );
  }

  if (yamlPath) {
    const kind: LayoutKind = roboflowLike && !yoloLike ? 'roboflow' : 'yolo';
    const what = kind === 'roboflow' ? 'Roboflow layout (train/valid/test with images and labels)' : 'YOLO layout';
    return { ok: true, layout: { kind, root, yamlPath, tasks: detectionTasks, description: `${what} in ${rootName} described by "${yamlPath}".`, issues: [] } };
  }

  if (classifyLike) {
    return fail(
      ProcessingCode.TaskMismatch,
      `The archive looks like a classification dataset (<split>/<class>/<image> in ${rootName}) but the dataset's task is ${task}. Set the task to classify, or add a data.yaml and labels for ${task}.`,
    );
  }
  const deeper: string[] = [];
  for (let i = 0; i < index.table.count; i++) {
    const f = nameAt(index, i);
    if (index.dirOf[i] !== -1 && isYaml(f) && dirname(f) !== root) deeper.push(f);
  }
  if (yoloLike || roboflowLike) {
    return fail(
      ProcessingCode.NoYaml,
      `Found image and label folders in ${rootName} but no dataset yaml next to them. Add a data.yaml in ${rootName} with the class names and split folders, for example:\ntrain: images/train\nval: images/val\nnames:\n  0: person${deeper.length ? `\n(Found ${deeper.map((d) => `"${d}"`).join(', ')}, but a dataset yaml must sit at the top of the dataset.)` : ''}`,
    );
  }
  return fail(
    ProcessingCode.UnknownLayout,
    `Cannot recognise the dataset layout in ${rootName}. Found: ${describeFolder(index, root)}. Expected a data.yaml with images/train, images/val and labels/train, labels/val folders (or Roboflow's train/, valid/ with images/ and labels/)${task === undefined ? ', or classification folders <split>/<class>/<image>' : ''}.`,
  );
}

/**
 * The task an archive settles on its own, or null when only the user can tell (ADR 0029): a
 * classification layout (`<split>/<class>/<image>`, no yaml) can only be classify, whatever task the
 * dataset was created with; a detection-style archive may be detect, segment, obb or pose.
 */
export function taskFromLayout(entries: LayoutEntries): DatasetTask | null {
  const detected = detectLayout(entries);
  return detected.ok && detected.layout.kind === 'classify' ? 'classify' : null;
}

/**
 * Looks through wrapping folders: a folder is a wrapper when it is the only thing at its level
 * (ignoring stray non-dataset files such as a README) and is not itself part of a layout.
 */
function findRoot(index: EntryIndex): string {
  let root = '';
  for (;;) {
    const node = index.dirs.get(root);
    if (!node || node.dirs.size !== 1) return root;
    if (someFile(index, node, (f) => isImage(f) || isYaml(f))) return root;
    const [only] = node.dirs;
    if (STRUCTURAL.has(basename(only).toLowerCase())) return root;
    root = only;
  }
}

function looksClassify(index: EntryIndex, root: string): boolean {
  const node = index.dirs.get(root);
  if (!node) return false;
  const splitDirs = [...node.dirs].filter((d) => splitOfFolder(basename(d)) !== null);
  if (splitDirs.length === 0) return false;
  return splitDirs.every((dir) => {
    const sub = index.dirs.get(dir);
    if (!sub || sub.dirs.size === 0) return false;
    if ([...sub.dirs].some((d) => ['images', 'labels'].includes(basename(d).toLowerCase()))) return false;
    return [...sub.dirs].some((d) => someFile(index, index.dirs.get(d), isImage));
  });
}

// ---------------------------------------------------------------------------------------------
// step 2

/**
 * Lists each split's images and pairs them with label files. For yolo layouts pass the yaml's split
 * paths (`parseDatasetYaml(...).config`); without them the conventional folders are used, which is
 * what a browser pre-check can do before reading the yaml.
 */
export function resolveLayout(entries: LayoutEntries, detected: DetectedLayout, yamlPaths?: YamlSplitPaths): LayoutResult<DatasetLayout> {
  const index = indexEntries(entries);
  const resolved = resolveLayoutPositions(index, detected, yamlPaths);
  if (!resolved.ok) return resolved;
  const splits: Partial<Record<Split, SplitLayout>> = {};
  for (const split of SPLITS) {
    const s = resolved.layout.splits[split];
    if (!s) continue;
    const images: LayoutImage[] = new Array<LayoutImage>(s.positions.length);
    for (let k = 0; k < s.positions.length; k++) images[k] = layoutImage(index, s, k);
    splits[split] = { dirs: s.dirs, images };
  }
  return { ok: true, layout: { ...resolved.layout, splits } };
}

/** The `LayoutImage` of a split's `k`th image, built from its positions. */
export function layoutImage(index: EntryIndex, split: SplitPositions, k: number): LayoutImage {
  const entry = nameAt(index, split.positions[k]);
  if (split.classes) return { entry, name: basename(entry), label: null, expectedLabel: null, classIndex: split.classes[k] };
  const label = split.labels![k];
  return { entry, name: basename(entry), label: label === -1 ? null : nameAt(index, label), expectedLabel: imageToLabelPath(entry), classIndex: null };
}

/**
 * `resolveLayout` with each split's images as columns of entry positions (`index.table`),
 * for archives of 100,000s of images (ADR 0042): the same checks, issues and order, and no record or
 * string per image.
 */
export function resolveLayoutPositions(entries: LayoutEntries, detected: DetectedLayout, yamlPaths?: YamlSplitPaths): LayoutResult<DatasetPositions> {
  const index = indexEntries(entries);
  try {
    return { ok: true, layout: detected.kind === 'classify' ? resolveClassify(index, detected) : resolveYolo(index, detected, yamlPaths) };
  } catch (err) {
    if (err instanceof DatasetProcessingError) return { ok: false, error: { code: err.code, message: err.message, ...(err.file ? { file: err.file } : {}) } };
    throw err;
  }
}

/**
 * Entry positions keyed by a name (open addressing in typed arrays, ADR 0042), for the duplicate
 * checks of a split: the first position added for a key stays.
 */
class PositionTable {
  private readonly slots: Int32Array;
  private readonly hashes: Int32Array;
  private readonly mask: number;

  constructor(capacity: number) {
    let size = 16;
    while (size < capacity * 2) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.hashes = new Int32Array(size);
    this.mask = size - 1;
  }

  /** Adds `position` under the part of `name` from `from` on; returns the position already there, or -1. */
  addTail(index: EntryIndex, position: number, name: string, from: number): number {
    const hash = hashOf(name, from);
    let slot = hash & this.mask;
    for (; this.slots[slot] !== -1; slot = (slot + 1) & this.mask) {
      if (this.hashes[slot] !== hash) continue;
      const other = nameAt(index, this.slots[slot]);
      const otherFrom = other.lastIndexOf('/') + 1;
      if (sameTail(name, from, other, otherFrom)) return this.slots[slot];
    }
    this.slots[slot] = position;
    this.hashes[slot] = hash;
    return -1;
  }

  /** Adds `position` (an image) under its label path; returns the image already there, or -1. */
  addLabelPath(index: EntryIndex, position: number, labelPath: string): number {
    const hash = hashOf(labelPath, 0);
    let slot = hash & this.mask;
    for (; this.slots[slot] !== -1; slot = (slot + 1) & this.mask) {
      if (this.hashes[slot] === hash && imageToLabelPath(nameAt(index, this.slots[slot])) === labelPath) return this.slots[slot];
    }
    this.slots[slot] = position;
    this.hashes[slot] = hash;
    return -1;
  }
}

function sameTail(a: string, aFrom: number, b: string, bFrom: number): boolean {
  if (a.length - aFrom !== b.length - bFrom) return false;
  for (let i = 0; i < a.length - aFrom; i++) if (a.charCodeAt(aFrom + i) !== b.charCodeAt(bFrom + i)) return false;
  return true;
}

function resolveYolo(index: EntryIndex, detected: DetectedLayout, yamlPaths: YamlSplitPaths | undefined): DatasetPositions {
  const issues: Issue[] = [...detected.issues];
  const yamlDir = detected.yamlPath ? dirname(detected.yamlPath) : detected.root;
  const yamlName = detected.yamlPath ? basename(detected.yamlPath) : 'data.yaml';
  const splits: Partial<Record<Split, SplitPositions>> = {};
  // The label files some image of a split expects, by position (a later entry of a name stands for the name).
  const claimed = new Uint8Array(index.table.count);
  const labelDirs = new Set<string>();

  for (const split of SPLITS) {
    const written = yamlPaths ? yamlPaths[split] : undefined;
    let dirs: string[];
    if (yamlPaths) {
      if (!written || written.length === 0) continue;
      dirs = written.map((p) => {
        const found = resolveSplitDir(index, detected.root, yamlDir, p, yamlPaths.path ?? null);
        if (found) {
          if (found.mapped)
            issues.push(
              issue(
                'warning',
                ProcessingCode.SplitPathMapped,
                `${yamlName} says ${split}: ${p}, which is not in the archive; using "${found.dir}/" instead.`,
                detected.yamlPath ?? undefined,
              ),
            );
          return found.dir;
        }
        const conventional = conventionalSplitDir(index, detected.root, split);
        if (conventional) {
          issues.push(
            issue(
              'warning',
              ProcessingCode.SplitPathMapped,
              `${yamlName} says ${split}: ${p}, which is not in the archive; using "${conventional}/" instead.`,
              detected.yamlPath ?? undefined,
            ),
          );
          return conventional;
        }
        throw new DatasetProcessingError(
          ProcessingCode.MissingSplit,
          `${yamlName} says ${split}: ${p}, but the archive has no such folder (looked for "${resolvePath(yamlDir, p) ?? p}/"). Found in ${quote(detected.root)}: ${describeFolder(index, detected.root)}.`,
          detected.yamlPath ?? undefined,
        );
      });
    } else {
      const conventional = conventionalSplitDir(index, detected.root, split);
      if (!conventional) continue;
      dirs = [conventional];
    }

    // The split's images as entry positions, its duplicate checks as tables of positions (ADR 0042):
    // the label path and the name are computed again when needed instead of kept per image.
    const capacity = dirs.reduce((n, dir) => n + countFilesUnder(index, dir), 0);
    const positions = new Int32Array(capacity);
    const labels = new Int32Array(capacity);
    const byName = new PositionTable(capacity);
    const byLabel = new PositionTable(capacity);
    let count = 0;
    let labelled = 0;
    for (const dir of dirs) {
      forEachFileUnder(index, dir, (position) => {
        const file = nameAt(index, position);
        if (!isImage(file)) return;
        const labelPath = imageToLabelPath(file);
        const nameFrom = file.lastIndexOf('/') + 1;
        const clashAt = byName.addTail(index, position, file, nameFrom);
        if (clashAt !== -1) {
          const name = basename(file);
          issues.push(
            issue(
              'error',
              ProcessingCode.ImageDuplicateName,
              `Two images in ${split} are named ${name} ("${nameAt(index, clashAt)}" and "${file}"); image names must be unique within a split. Rename one.`,
              file,
            ),
          );
        }
        const labelClashAt = byLabel.addLabelPath(index, position, labelPath);
        if (labelClashAt !== -1 && nameAt(index, labelClashAt) !== file) {
          issues.push(
            issue(
              'error',
              ProcessingCode.ImageDuplicateName,
              `"${nameAt(index, labelClashAt)}" and "${file}" would share the label file "${labelPath}". Rename one of the images.`,
              file,
            ),
          );
        }
        const label = findFile(index, labelPath);
        if (label !== -1) {
          claimed[label] = 1;
          labelled++;
        }
        positions[count] = position;
        labels[count++] = label;
      });
      labelDirs.add(imageDirToLabelDir(dir));
    }
    const images = positions.slice(0, count);
    const imageLabels = labels.slice(0, count);
    splits[split] = { dirs, positions: images, labels: imageLabels, classes: null };

    const where = dirs.map((d) => `"${imageDirToLabelDir(d)}/"`).join(', ');
    if (count === 0) {
      issues.push(
        issue(
          split === 'train' ? 'error' : 'warning',
          ProcessingCode.EmptySplit,
          `The ${split} split (${dirs.map((d) => `"${d}/"`).join(', ')}) has no images.`,
        ),
      );
    } else if (labelled === 0) {
      // One line instead of one warning per image: the whole label folder is missing or misnamed.
      issues.push(
        issue(
          split === 'train' ? 'error' : 'warning',
          ProcessingCode.NoLabels,
          `None of the ${count} ${split} images has a label file. Labels must be .txt files with the image's name in ${where}, for example "${imageToLabelPath(nameAt(index, images[0]))}".`,
        ),
      );
    } else {
      for (let k = 0; k < count; k++) {
        if (imageLabels[k] === -1) {
          const entry = nameAt(index, images[k]);
          issues.push(
            issue(
              'warning',
              ProcessingCode.ImageUnlabelled,
              `No label file (expected "${imageToLabelPath(entry)}"); the image is used as background with no objects.`,
              entry,
            ),
          );
        }
      }
    }
  }

  // With a yaml, a missing val is a yaml error (ultralytics refuses it); see parseDatasetYaml.
  if (!splits.val && !yamlPaths)
    issues.push(issue('warning', ProcessingCode.NoVal, 'No val images found (images/val/ or valid/images/); training needs a val split.'));
  if (!splits.test)
    issues.push(
      issue('warning', ProcessingCode.NoTest, 'There is no test split. That is fine for training; add one to measure the final model on unseen images.'),
    );
  if (!splits.train && !yamlPaths) {
    throw new DatasetProcessingError(
      ProcessingCode.MissingSplit,
      `No train images found in ${quote(detected.root)}: expected images/train/ (or train/images/). Found: ${describeFolder(index, detected.root)}.`,
    );
  }

  const orphans = new Set<string>();
  for (const dir of [...labelDirs].sort()) {
    forEachFileUnder(index, dir, (position) => {
      const file = nameAt(index, position);
      // LabelImg writes classes.txt beside the labels; it is not a label file.
      if (extname(file) !== 'txt' || claimed[findFile(index, file)] === 1 || basename(file).toLowerCase() === 'classes.txt') return;
      if (orphans.has(file)) return;
      orphans.add(file);
      // ultralytics never reads a label without its image; it is ignored, not a reason to fail (ADR 0029).
      issues.push(
        issue(
          'warning',
          ProcessingCode.LabelOrphan,
          `Label file with no matching image (expected an image named ${stem(file)}.<jpg|png|...> in the images folder of the same split); it is ignored.`,
          file,
        ),
      );
    });
  }

  const total = Object.values(splits).reduce((n, s) => n + (s?.positions.length ?? 0), 0);
  if (total === 0) {
    throw new DatasetProcessingError(
      ProcessingCode.NoImages,
      `The split folders named by ${yamlName} hold no images: ${Object.values(splits)
        .flatMap((s) => s?.dirs ?? [])
        .map((d) => `"${d}/"`)
        .join(', ')}.`,
      detected.yamlPath ?? undefined,
    );
  }
  return { ...detected, issues, splits, classNames: null, orphanLabels: [...orphans] };
}

/** ultralytics' `img2label_paths`: the last `/images/` becomes `/labels/` and the suffix `.txt`. */
export function imageToLabelPath(image: string): string {
  // Read as ultralytics reads `/${image}`, with one string built (once per image of the archive, ADR 0042).
  const at = image.lastIndexOf('/images/');
  const head = at !== -1 ? `${image.slice(0, at)}/labels/` : image.startsWith('images/') ? 'labels/' : '';
  const tail = at !== -1 ? image.slice(at + '/images/'.length) : head ? image.slice('images/'.length) : image;
  const dot = tail.lastIndexOf('.');
  return `${head}${dot > tail.lastIndexOf('/') ? tail.slice(0, dot) : tail}.txt`;
}

function imageDirToLabelDir(dir: string): string {
  return dirname(imageToLabelPath(`${dir}/x.jpg`));
}

/**
 * The yaml's split path, read the way ultralytics' `check_det_dataset` reads it: relative to the yaml
 * (or to its `path:`), then without a leading `../` (Roboflow writes `../train/images` for a yaml that
 * sits beside `train/`). Failing those, the longest tail of the path that exists under the root, which
 * rescues absolute paths from the machine that wrote the yaml (`/content/ds/train/images`).
 */
function resolveSplitDir(index: EntryIndex, root: string, yamlDir: string, written: string, pathKey: string | null): { dir: string; mapped: boolean } | null {
  const exists = (dir: string | null): dir is string => dir !== null && dir !== '' && index.dirs.has(dir);
  const absolute = /^([a-zA-Z]:)?[\\/]/.test(written);
  if (!absolute) {
    if (pathKey && !/^([a-zA-Z]:)?[\\/]/.test(pathKey)) {
      const base = resolvePath(yamlDir, pathKey);
      const viaPath = base === null ? null : resolvePath(base, written);
      if (exists(viaPath)) return { dir: viaPath, mapped: false };
    }
    const direct = resolvePath(yamlDir, written);
    if (exists(direct)) return { dir: direct, mapped: false };
    if (written.startsWith('../')) {
      const stripped = resolvePath(yamlDir, written.slice(3));
      if (exists(stripped)) return { dir: stripped, mapped: false };
    }
  }
  const segments = written
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.' && s !== '..');
  for (let k = segments.length - 1; k >= 1; k--) {
    const candidate = join(root, segments.slice(segments.length - k).join('/'));
    if (exists(candidate)) return { dir: candidate, mapped: true };
  }
  return null;
}

function conventionalSplitDir(index: EntryIndex, root: string, split: Split): string | null {
  for (const alias of SPLIT_ALIASES[split]) {
    const imagesDir = childDir(index, root, 'images');
    const yolo = imagesDir ? childDir(index, imagesDir, alias) : null;
    if (yolo) return yolo;
    const splitDir = childDir(index, root, alias);
    const roboflow = splitDir ? childDir(index, splitDir, 'images') : null;
    if (roboflow) return roboflow;
  }
  return null;
}

function resolveClassify(index: EntryIndex, detected: DetectedLayout): DatasetPositions {
  const issues: Issue[] = [...detected.issues];
  const rootNode = index.dirs.get(detected.root);
  const splitDirs: Partial<Record<Split, string>> = {};
  for (const split of SPLITS) {
    for (const alias of SPLIT_ALIASES[split]) {
      const dir = [...(rootNode?.dirs ?? [])].find((d) => basename(d).toLowerCase() === alias);
      if (dir) {
        splitDirs[split] = dir;
        break;
      }
    }
  }
  if (!splitDirs.train) {
    throw new DatasetProcessingError(
      ProcessingCode.MissingSplit,
      `A classification dataset needs a train/ folder in ${quote(detected.root)} (with one folder per class). Found: ${describeFolder(index, detected.root)}.`,
    );
  }
  const classDirs = (splitDir: string) =>
    [...(index.dirs.get(splitDir)?.dirs ?? [])].sort((a, b) => (basename(a) < basename(b) ? -1 : basename(a) > basename(b) ? 1 : 0));
  // ultralytics (torchvision ImageFolder) orders classes by sorted folder name, from train.
  const classNames = classDirs(splitDirs.train).map(basename);
  const classIndex = new Map(classNames.map((name, i) => [name, i]));

  const splits: Partial<Record<Split, SplitPositions>> = {};
  for (const split of SPLITS) {
    const splitDir = splitDirs[split];
    if (!splitDir) continue;
    const capacity = countFilesUnder(index, splitDir);
    const positions = new Int32Array(capacity);
    const classes = new Int32Array(capacity);
    let count = 0;
    for (const loose of filesOf(index, index.dirs.get(splitDir)).filter(isImage)) {
      issues.push(
        issue(
          'warning',
          ProcessingCode.ClassifyLooseImage,
          `Image is not inside a class folder of ${split}/ and is ignored. Move it into ${split}/<class>/.`,
          loose,
        ),
      );
    }
    const present = new Set<string>();
    for (const dir of classDirs(splitDir)) {
      const name = basename(dir);
      // The folder's images go straight into the split's column; taken back when the folder is refused.
      const first = count;
      forEachFileUnder(index, dir, (position) => {
        if (isImage(nameAt(index, position))) positions[count++] = position;
      });
      const found = count - first;
      count = first;
      const cls = classIndex.get(name);
      if (cls === undefined) {
        issues.push(
          issue(
            'error',
            ProcessingCode.ClassifyUnknownClass,
            `Class folder "${name}" in ${split}/ is not a class in train/ (${classNames.join(', ')}). Its ${found} images cannot be used.`,
            dir,
          ),
        );
        continue;
      }
      if (found === 0) {
        issues.push(
          issue(
            'error',
            ProcessingCode.ClassifyEmptyClass,
            `Class folder "${name}" in ${split}/ holds no images; ultralytics refuses empty class folders. Add images or remove it.`,
            dir,
          ),
        );
        continue;
      }
      present.add(name);
      classes.fill(cls, first, first + found);
      count = first + found;
    }
    if (split !== 'train') {
      const missing = classNames.filter((n) => !present.has(n));
      if (missing.length > 0 && count > 0) {
        issues.push(
          issue(
            'warning',
            ProcessingCode.ClassifyMissingClass,
            `${split}/ has no folder (or no images) for ${missing.length === 1 ? 'class' : 'classes'} ${missing.join(', ')}; those classes will not be measured on ${split}.`,
            splitDir,
          ),
        );
      }
    }
    if (count === 0)
      issues.push(
        issue(
          split === 'train' ? 'error' : 'warning',
          ProcessingCode.EmptySplit,
          `The ${split} split ("${splitDir}/") has no images in class folders.`,
          splitDir,
        ),
      );
    splits[split] = { dirs: [splitDir], positions: positions.slice(0, count), labels: null, classes: classes.slice(0, count) };
  }
  if (!splits.val) issues.push(issue('warning', ProcessingCode.NoVal, 'There is no val/ (or valid/) folder; ultralytics will validate on test/ if present.'));
  if (!splits.test)
    issues.push(
      issue('warning', ProcessingCode.NoTest, 'There is no test split. That is fine for training; add one to measure the final model on unseen images.'),
    );
  const total = Object.values(splits).reduce((n, s) => n + (s?.positions.length ?? 0), 0);
  if (total === 0) throw new DatasetProcessingError(ProcessingCode.NoImages, `The class folders in ${quote(detected.root)} hold no images.`);
  return { ...detected, issues, splits, classNames, orphanLabels: [] };
}

function fail(code: string, message: string, file?: string): { ok: false; error: LayoutError } {
  return { ok: false, error: { code, message, ...(file ? { file } : {}) } };
}

/** Counts for the upload dialog and the result, without the per-image lists. */
export interface LayoutSummary {
  kind: LayoutKind;
  root: string;
  yamlPath: string | null;
  description: string;
  splits: Partial<Record<Split, { dirs: string[]; images: number }>>;
}

export function summarizeLayout(layout: DatasetLayout | DatasetPositions): LayoutSummary {
  const splits: LayoutSummary['splits'] = {};
  for (const split of SPLITS) {
    const s = layout.splits[split];
    if (s) splits[split] = { dirs: s.dirs, images: 'positions' in s ? s.positions.length : s.images.length };
  }
  return { kind: layout.kind, root: layout.root, yamlPath: layout.yamlPath, description: layout.description, splits };
}
