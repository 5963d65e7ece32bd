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

/** What `detectLayout` needs of an entry; `ArchiveEntry` fits, and so does a browser zip listing. */
export interface LayoutEntryInput {
  name: string;
  isDirectory: boolean;
}

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

interface DirNode {
  files: string[];
  dirs: Set<string>;
}

export interface EntryIndex {
  dirs: Map<string, DirNode>;
  files: string[];
  fileSet: Set<string>;
  imageCount: number;
}

/**
 * Builds the folder tree once; `detectLayout` and `resolveLayout` accept either entries or the index
 * so that large archives are indexed a single time.
 */
export function indexEntries(entries: readonly LayoutEntryInput[] | EntryIndex): EntryIndex {
  if (!Array.isArray(entries)) return entries as EntryIndex;
  const dirs = new Map<string, DirNode>([['', { files: [], dirs: new Set() }]]);
  const ensureDir = (dir: string): DirNode => {
    let node = dirs.get(dir);
    if (node) return node;
    node = { files: [], dirs: new Set() };
    dirs.set(dir, node);
    const parent = dirname(dir);
    ensureDir(parent).dirs.add(dir);
    return node;
  };
  const files: string[] = [];
  let imageCount = 0;
  for (const entry of entries as readonly LayoutEntryInput[]) {
    if (entry.name === '' || isJunk(entry.name)) continue;
    if (entry.isDirectory) {
      ensureDir(entry.name);
      continue;
    }
    ensureDir(dirname(entry.name)).files.push(entry.name);
    files.push(entry.name);
    if (isImage(entry.name)) imageCount++;
  }
  return { dirs, files, fileSet: new Set(files), imageCount };
}

export const isImage = (name: string): boolean => IMAGE_EXTENSIONS.has(extname(name));
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

function filesUnder(index: EntryIndex, dir: string, out: string[] = []): string[] {
  const node = index.dirs.get(dir);
  if (!node) return out;
  // A loop, not push(...files): one folder may hold hundreds of thousands of images.
  for (const file of node.files) out.push(file);
  for (const sub of [...node.dirs].sort()) filesUnder(index, sub, out);
  return out;
}

const quote = (path: string) => (path === '' ? 'the archive root' : `"${path}/"`);

/** A short listing of a folder, for error messages that say what was found. */
function describeFolder(index: EntryIndex, dir: string): string {
  const node = index.dirs.get(dir);
  if (!node) return 'nothing';
  const dirs = [...node.dirs].map((d) => `${basename(d)}/`).sort();
  const files = node.files.map(basename).sort();
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
export function detectLayout(entries: readonly LayoutEntryInput[] | EntryIndex, options: { task?: DatasetTask } = {}): LayoutResult<DetectedLayout> {
  const index = indexEntries(entries);
  const task = options.task;
  if (index.imageCount === 0) {
    const ignored = index.files.filter((f) => IGNORED_IMAGE_EXTENSIONS.has(extname(f))).length;
    return fail(
      ProcessingCode.NoImages,
      `The archive holds no images${ignored ? ` (${ignored} files in formats ultralytics does not train on)` : ''}. Supported formats: ${[...IMAGE_EXTENSIONS].join(', ')}. Found at the top: ${describeFolder(index, '')}.`,
    );
  }

  const root = findRoot(index);
  const yamls = (index.dirs.get(root)?.files ?? []).filter(isYaml);
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
  const deeper = index.files.filter((f) => isYaml(f) && dirname(f) !== root);
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
export function taskFromLayout(entries: readonly LayoutEntryInput[] | EntryIndex): DatasetTask | null {
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
    if (node.files.some((f) => isImage(f) || isYaml(f))) return root;
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
    return [...sub.dirs].some((d) => (index.dirs.get(d)?.files ?? []).some(isImage));
  });
}

// ---------------------------------------------------------------------------------------------
// step 2

/**
 * Lists each split's images and pairs them with label files. For yolo layouts pass the yaml's split
 * paths (`parseDatasetYaml(...).config`); without them the conventional folders are used, which is
 * what a browser pre-check can do before reading the yaml.
 */
export function resolveLayout(
  entries: readonly LayoutEntryInput[] | EntryIndex,
  detected: DetectedLayout,
  yamlPaths?: YamlSplitPaths,
): LayoutResult<DatasetLayout> {
  const index = indexEntries(entries);
  try {
    return { ok: true, layout: detected.kind === 'classify' ? resolveClassify(index, detected) : resolveYolo(index, detected, yamlPaths) };
  } catch (err) {
    if (err instanceof DatasetProcessingError) return { ok: false, error: { code: err.code, message: err.message, ...(err.file ? { file: err.file } : {}) } };
    throw err;
  }
}

function resolveYolo(index: EntryIndex, detected: DetectedLayout, yamlPaths: YamlSplitPaths | undefined): DatasetLayout {
  const issues: Issue[] = [...detected.issues];
  const yamlDir = detected.yamlPath ? dirname(detected.yamlPath) : detected.root;
  const yamlName = detected.yamlPath ? basename(detected.yamlPath) : 'data.yaml';
  const splits: Partial<Record<Split, SplitLayout>> = {};
  // Every image's expected label path, all splits together: the keys of the splits' `byLabel` maps
  // (ADR 0042: no second set of the same strings).
  const byLabelOfSplits: Map<string, string>[] = [];
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

    const images: LayoutImage[] = [];
    const byName = new Map<string, string>();
    const byLabel = new Map<string, string>();
    for (const dir of dirs) {
      for (const file of filesUnder(index, dir)) {
        if (!isImage(file)) continue;
        const labelPath = imageToLabelPath(file);
        const name = basename(file);
        const clash = byName.get(name);
        if (clash !== undefined) {
          issues.push(
            issue(
              'error',
              ProcessingCode.ImageDuplicateName,
              `Two images in ${split} are named ${name} ("${clash}" and "${file}"); image names must be unique within a split. Rename one.`,
              file,
            ),
          );
        } else byName.set(name, file);
        const labelClash = byLabel.get(labelPath);
        if (labelClash !== undefined && labelClash !== file) {
          issues.push(
            issue(
              'error',
              ProcessingCode.ImageDuplicateName,
              `"${labelClash}" and "${file}" would share the label file "${labelPath}". Rename one of the images.`,
              file,
            ),
          );
        } else byLabel.set(labelPath, file);
        images.push({ entry: file, name, label: index.fileSet.has(labelPath) ? labelPath : null, expectedLabel: labelPath, classIndex: null });
      }
      labelDirs.add(imageDirToLabelDir(dir));
    }
    splits[split] = { dirs, images };
    byLabelOfSplits.push(byLabel);

    const labelled = images.filter((i) => i.label !== null).length;
    const where = dirs.map((d) => `"${imageDirToLabelDir(d)}/"`).join(', ');
    if (images.length === 0) {
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
          `None of the ${images.length} ${split} images has a label file. Labels must be .txt files with the image's name in ${where}, for example "${images[0].expectedLabel}".`,
        ),
      );
    } else {
      for (const image of images) {
        if (image.label === null) {
          issues.push(
            issue(
              'warning',
              ProcessingCode.ImageUnlabelled,
              `No label file (expected "${image.expectedLabel}"); the image is used as background with no objects.`,
              image.entry,
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
    for (const file of filesUnder(index, dir)) {
      // LabelImg writes classes.txt beside the labels; it is not a label file.
      if (extname(file) !== 'txt' || byLabelOfSplits.some((m) => m.has(file)) || basename(file).toLowerCase() === 'classes.txt') continue;
      if (orphans.has(file)) continue;
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
    }
  }

  const total = Object.values(splits).reduce((n, s) => n + (s?.images.length ?? 0), 0);
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

function resolveClassify(index: EntryIndex, detected: DetectedLayout): DatasetLayout {
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

  const splits: Partial<Record<Split, SplitLayout>> = {};
  for (const split of SPLITS) {
    const splitDir = splitDirs[split];
    if (!splitDir) continue;
    const images: LayoutImage[] = [];
    for (const loose of (index.dirs.get(splitDir)?.files ?? []).filter(isImage)) {
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
      const files = filesUnder(index, dir).filter(isImage);
      const cls = classIndex.get(name);
      if (cls === undefined) {
        issues.push(
          issue(
            'error',
            ProcessingCode.ClassifyUnknownClass,
            `Class folder "${name}" in ${split}/ is not a class in train/ (${classNames.join(', ')}). Its ${files.length} images cannot be used.`,
            dir,
          ),
        );
        continue;
      }
      if (files.length === 0) {
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
      for (const file of files) images.push({ entry: file, name: basename(file), label: null, expectedLabel: null, classIndex: cls });
    }
    if (split !== 'train') {
      const missing = classNames.filter((n) => !present.has(n));
      if (missing.length > 0 && images.length > 0) {
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
    if (images.length === 0)
      issues.push(
        issue(
          split === 'train' ? 'error' : 'warning',
          ProcessingCode.EmptySplit,
          `The ${split} split ("${splitDir}/") has no images in class folders.`,
          splitDir,
        ),
      );
    splits[split] = { dirs: [splitDir], images };
  }
  if (!splits.val) issues.push(issue('warning', ProcessingCode.NoVal, 'There is no val/ (or valid/) folder; ultralytics will validate on test/ if present.'));
  if (!splits.test)
    issues.push(
      issue('warning', ProcessingCode.NoTest, 'There is no test split. That is fine for training; add one to measure the final model on unseen images.'),
    );
  const total = Object.values(splits).reduce((n, s) => n + (s?.images.length ?? 0), 0);
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

export function summarizeLayout(layout: DatasetLayout): LayoutSummary {
  const splits: LayoutSummary['splits'] = {};
  for (const split of SPLITS) {
    const s = layout.splits[split];
    if (s) splits[split] = { dirs: s.dirs, images: s.images.length };
  }
  return { kind: layout.kind, root: layout.root, yamlPath: layout.yamlPath, description: layout.description, splits };
}
