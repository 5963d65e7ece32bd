/**
 * Types and constants shared by the dataset processing modules. Pure: no Node imports, so that
 * layout detection and validation can run in the browser on a zip's central directory.
 */

/** Tasks whose archives we can check. `semantic-segment` (spec §3) has no YOLO label format yet. */
export type DatasetTask = 'detect' | 'segment' | 'pose' | 'obb' | 'classify';
export const DATASET_TASKS: readonly DatasetTask[] = ['detect', 'segment', 'pose', 'obb', 'classify'];

export type Split = 'train' | 'val' | 'test';
export const SPLITS: readonly Split[] = ['train', 'val', 'test'];

/**
 * Image suffixes ultralytics trains on (`IMG_FORMATS` in ultralytics/data/utils.py). Files with
 * other suffixes are ignored by the trainer, so we ignore them too (with a warning when they look
 * like images).
 */
export const IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['bmp', 'dng', 'jpeg', 'jpg', 'mpo', 'png', 'tif', 'tiff', 'webp', 'pfm', 'heic']);
/** Image-like suffixes ultralytics would silently skip; worth a warning since users expect them used. */
export const IGNORED_IMAGE_EXTENSIONS: ReadonlySet<string> = new Set(['gif', 'avif', 'svg', 'heif', 'jfif', 'ico', 'jp2']);

/** One line of the processing report. `file` is the archive entry name; `line` is 1-based. */
export interface ReportEntry {
  file?: string;
  line?: number;
  code: string;
  message: string;
}

/**
 * An image + label pair left out of the dataset (ADR 0029): `image` is the image's entry name, `file`
 * (and `line`) the file at fault — the image itself or its label file — and `code`/`message` the one
 * reason, the first problem ultralytics' `verify_image_label` would stop at.
 */
export interface LeftOutEntry extends ReportEntry {
  image: string;
}

/** A finding with its severity, as produced by the pure checks before it goes into a report. */
export interface Issue extends ReportEntry {
  severity: 'error' | 'warning';
}

export const issue = (severity: Issue['severity'], code: string, message: string, file?: string, line?: number): Issue => ({
  severity,
  code,
  message,
  ...(file !== undefined ? { file } : {}),
  ...(line !== undefined ? { line } : {}),
});

/**
 * One label row in the NDJSON annotation form of the Ultralytics Platform (platform-protocol §5.4),
 * so that exporting a processed dataset is a straight copy:
 * detect `[cls, cx, cy, w, h]`, segment `[cls, x1, y1, ...]`, obb `[cls, x1, y1, ..., x4, y4]`,
 * pose `[cls, cx, cy, w, h, kx, ky(, v), ...]`, classify `[cls]`. Coordinates are normalised to 0..1.
 */
export type LabelRow = number[];
