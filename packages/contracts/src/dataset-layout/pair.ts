/**
 * The unit of dataset checking is the image + label pair, as in ultralytics' `verify_image_label`
 * (8.3.166) (ADR 0029): a pair the client would drop is left out and listed, a defect it repairs
 * (a JPEG with bytes after its end marker, duplicate label rows) is repaired and flagged as a warning,
 * and nothing else about the pair stops the dataset. The browser's check before upload and the
 * server's processing call this same function with the same inputs (`inspectImageBytes` verdict and
 * the label file's text), so they list the same pairs.
 */
import { ProcessingCode } from './errors.js';
import type { ImageVerdict } from './image-bytes.js';
import { issue, type Issue, type LabelRow, type LeftOutEntry } from './types.js';
import { parseLabelFile, type LabelSchema, type ParsedLabels } from './validate.js';

/** The label side of a pair: none (background), its text, or a problem reading it (too large, not text, damaged entry). */
export type PairLabel = { file: string; text: string } | { file: string; problem: Issue } | null;

export interface PairInput {
  /** Archive entry name of the image. */
  image: string;
  verdict: ImageVerdict;
  label: PairLabel;
  schema: LabelSchema;
}

export interface PairResult {
  keep: boolean;
  /** Valid rows, duplicates removed (empty for a background image or a dropped pair). */
  rows: LabelRow[];
  /** Kept pairs: what was repaired or is worth knowing (warnings only). */
  warnings: Issue[];
  /** Dropped pairs: the one reason, the first problem the client would stop at (image first, then label). */
  leftOut: LeftOutEntry | null;
  shapes: ParsedLabels['shapes'];
}

/** Both hosts have TextDecoder (browsers, Node); contracts compile without DOM or Node types. */
declare const TextDecoder: new (label?: string, options?: { fatal?: boolean }) => { decode(input?: Uint8Array): string };

const noShapes = (): ParsedLabels['shapes'] => ({ boxes: 0, polygons: 0, other: 0 });

export function verifyImageLabel(input: PairInput): PairResult {
  const { image, verdict, label, schema } = input;
  if (!verdict.ok) {
    const reason = verdict.issues.find((i) => i.severity === 'error') ?? issue('error', ProcessingCode.ImageCorrupt, 'The image cannot be read.', image);
    return { keep: false, rows: [], warnings: [], leftOut: leftOut(image, reason), shapes: noShapes() };
  }
  const warnings = [...verdict.issues];
  if (label === null) return { keep: true, rows: [], warnings, leftOut: null, shapes: noShapes() };
  if ('problem' in label) return { keep: false, rows: [], warnings: [], leftOut: leftOut(image, label.problem), shapes: noShapes() };
  const parsed = parseLabelFile(label.text, label.file, schema);
  const errors = parsed.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) {
    const first = errors[0];
    const more = errors.length - 1;
    return {
      keep: false,
      rows: [],
      warnings: [],
      leftOut: leftOut(image, more > 0 ? { ...first, message: `${first.message} (${more} more ${more === 1 ? 'problem' : 'problems'} in this file)` } : first),
      shapes: parsed.shapes,
    };
  }
  return { keep: true, rows: parsed.rows, warnings: [...warnings, ...parsed.issues], leftOut: null, shapes: parsed.shapes };
}

function leftOut(image: string, reason: Issue): LeftOutEntry {
  return {
    image,
    code: reason.code,
    message: reason.message,
    ...(reason.file !== undefined ? { file: reason.file } : {}),
    ...(reason.line !== undefined ? { line: reason.line } : {}),
  };
}

/**
 * A label file's text as ultralytics reads it (`open(lb_file, encoding="utf-8")`; UTF-16 with a
 * byte-order mark from Windows tools is read too), or null when it is not text: then the pair is left out.
 */
export function decodeLabelText(bytes: Uint8Array): string | null {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** The pair-level problem for a label file that is not text. */
export const labelNotText = (file: string): Issue =>
  issue('error', ProcessingCode.LabelEncoding, 'The label file is not text (not UTF-8); label files hold lines of numbers.', file);
