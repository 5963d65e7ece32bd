/**
 * Dataset archive processing: a pure library (no HTTP, no database). Start with `processArchive`;
 * `detectLayout`, `resolveLayout`, `parseDatasetYaml` and `parseLabelFile` are pure and also run in
 * the browser for checks before upload (import them from their files, not from here, to keep Node
 * modules out of the browser bundle).
 */
export { processArchive, checkImage, makeThumbnail, DEFAULT_PROCESSING_LIMITS } from './process-archive.js';
export type { ProcessOptions, ProcessResult, ProcessedImage, ProcessingProgress, ProcessingLimits } from './process-archive.js';
export { machineParallelism } from './pool.js';
export { openArchive, DEFAULT_ARCHIVE_LIMITS, formatBytes } from './archive.js';
export type { ArchiveReader, ArchiveEntry, ArchiveEntries, ArchiveLimits, ArchiveFormat, EntrySource, SequentialRead } from './archive.js';
export { detectLayout, resolveLayout, indexEntries, summarizeLayout, imageToLabelPath } from './layout.js';
export type {
  DetectedLayout,
  DatasetLayout,
  LayoutSummary,
  LayoutImage,
  SplitLayout,
  LayoutKind,
  LayoutEntryInput,
  LayoutEntryTable,
  YamlSplitPaths,
  LayoutError,
  LayoutResult,
} from './layout.js';
export { parseDatasetYaml, parseLabelFile, ReportBuilder, reportToText, taskMismatchHint } from './validate.js';
export type { DatasetYamlConfig, LabelSchema, ParsedLabels, ProcessingReport } from './validate.js';
export { StatsAccumulator } from './stats.js';
export type { DatasetStats, DatasetSummary, HubDatasetStats, SplitStats } from './stats.js';
export { probeImage } from './images.js';
export type { ImageProbe, ThumbnailOptions } from './images.js';
export { DatasetProcessingError, ProcessingCode, isProcessingError } from './errors.js';
export { DATASET_TASKS, SPLITS, IMAGE_EXTENSIONS } from './types.js';
export type { DatasetTask, Split, ReportEntry, Issue, LabelRow } from './types.js';
