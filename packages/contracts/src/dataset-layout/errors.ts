/**
 * Stable codes for dataset processing. The web app maps them to messages; renaming one breaks it.
 * Fatal codes stop processing (the archive cannot be trusted or understood); the others are lines of
 * the per-file report.
 */
export const ProcessingCode = {
  // archive: fatal
  NotAZip: 'archive/not-a-zip',
  UnsupportedFormat: 'archive/unsupported-format',
  Corrupt: 'archive/corrupt',
  UnsafePath: 'archive/unsafe-path',
  TooLarge: 'archive/too-large',
  Bomb: 'archive/bomb',
  DuplicateEntry: 'archive/duplicate-entry',
  // archive: per entry
  Encrypted: 'archive/encrypted',
  UnsupportedCompression: 'archive/unsupported-compression',
  CorruptEntry: 'archive/corrupt-entry',
  CrcMismatch: 'archive/crc-mismatch',
  LinkSkipped: 'archive/link-skipped',
  /** A tar entry kind we cannot read (GNU sparse files); reported as an error naming the entry. */
  UnsupportedEntry: 'archive/unsupported-entry',
  // dataset structure: fatal
  NoImages: 'dataset/no-images',
  NoYaml: 'dataset/no-yaml',
  AmbiguousYaml: 'dataset/ambiguous-yaml',
  YamlInvalid: 'dataset/yaml-invalid',
  MissingSplit: 'dataset/missing-split',
  UnknownLayout: 'dataset/unknown-layout',
  TaskMismatch: 'dataset/task-mismatch',
  UnsupportedTask: 'dataset/unsupported-task',
  /** Every image + label pair of the train split was left out (ADR 0029): nothing to train on. */
  NothingUsable: 'dataset/nothing-usable',
  // dataset structure: report lines
  EmptySplit: 'dataset/empty-split',
  NoLabels: 'dataset/no-labels',
  NoVal: 'dataset/no-val',
  NoTest: 'dataset/no-test',
  SplitPathMapped: 'dataset/split-path-mapped',
  YamlIgnored: 'dataset/yaml-ignored',
  DuplicateClassName: 'dataset/duplicate-class-name',
  /** The task was taken from the archive (a classification layout), not the one the dataset was created with. */
  TaskPicked: 'dataset/task-picked',
  // labels
  LabelOrphan: 'label/orphan',
  LabelValueCount: 'label/value-count',
  LabelNotANumber: 'label/not-a-number',
  LabelOutOfRange: 'label/out-of-range',
  LabelClassId: 'label/class-id',
  LabelDuplicateRow: 'label/duplicate-row',
  LabelTooLarge: 'label/too-large',
  LabelEncoding: 'label/encoding',
  // images
  ImageCorrupt: 'image/corrupt',
  ImageTooSmall: 'image/too-small',
  ImageTooLarge: 'image/too-large',
  ImageTruncated: 'image/truncated',
  ImageUnverified: 'image/unverified',
  ImageUnlabelled: 'image/unlabelled',
  ImageDuplicateName: 'image/duplicate-name',
  ImageUnsupportedFormat: 'image/unsupported-format',
  // classify
  ClassifyUnknownClass: 'classify/unknown-class',
  ClassifyMissingClass: 'classify/missing-class',
  ClassifyLooseImage: 'classify/loose-image',
  ClassifyEmptyClass: 'classify/empty-class',
} as const;
export type ProcessingCode = (typeof ProcessingCode)[keyof typeof ProcessingCode];

/**
 * A failure that stops processing. `file` (and `line`) name the archive entry at fault when there is
 * one, so that the user sees which file to fix.
 */
export class DatasetProcessingError extends Error {
  constructor(
    public readonly code: ProcessingCode,
    message: string,
    public readonly file?: string,
    public readonly line?: number,
  ) {
    super(message);
    this.name = 'DatasetProcessingError';
  }
}

export const isProcessingError = (err: unknown): err is DatasetProcessingError => err instanceof DatasetProcessingError;

const PROCESSING_CODES: ReadonlySet<string> = new Set(Object.values(ProcessingCode));

/**
 * Whether processing the same archive again can end differently (ADR 0029): not when the dataset failed
 * on the archive itself (its error starts with a processing code: the same bytes fail the same way), yes
 * when it failed on something passing (`error/processing`, the server offline, unknown).
 */
export function retryCanHelp(error: string | null | undefined): boolean {
  if (!error) return true;
  return !PROCESSING_CODES.has(error.split(':')[0]!.trim());
}
