import {
  detectLayout,
  normalizeEntryName,
  printableName,
  ProcessingCode,
  resolveLayout,
  summarizeLayout,
  type DatasetTask,
  type Issue,
  type LayoutEntryInput,
  type LayoutSummary,
} from '@sightline/contracts/dataset-layout';
import { listZipEntries, ZipListingError } from '../../../lib/zip-listing';

/**
 * The check before upload (product notes #1, #2): the zip's central directory is listed in the
 * browser and run through the same layout detection as the server, so a wrong layout is caught
 * before any byte is sent and the user is told exactly what was found.
 *
 * What it can tell from names alone is definitive (no images, no yaml, classification folders for a
 * detection task, unsafe names...) and blocks the upload. Which folders the yaml names, and what the
 * labels say, only the server reads: for yolo layouts the split check uses the usual folders and its
 * findings are advice.
 */
export type ArchiveCheck =
  | { status: 'ok'; format: 'zip'; entries: number; summary: LayoutSummary; issues: Issue[] }
  | { status: 'blocked'; format: 'zip' | 'other'; error: { code: string; message: string; file?: string } }
  | { status: 'skipped'; format: 'tar' | 'zip'; reason: 'tar' | 'too-large' };

export const ARCHIVE_ACCEPT = ['.zip', '.tar'];
export const archiveFormat = (name: string): 'zip' | 'tar' | null => (/\.zip$/i.test(name) ? 'zip' : /\.tar$/i.test(name) ? 'tar' : null);

/** The dataset's task as the layout check knows it (semantic-segment archives use the segment layout). */
export const layoutTask = (task: string): DatasetTask | undefined =>
  task === 'semantic-segment' ? 'segment' : (['detect', 'segment', 'pose', 'obb', 'classify'] as const).find((t) => t === task);

export async function checkArchive(file: Blob & { name: string }, task: string): Promise<ArchiveCheck> {
  const format = archiveFormat(file.name);
  if (format === null) {
    return { status: 'blocked', format: 'other', error: { code: 'NoArchiveProvided', message: `"${file.name}" is not a .zip or .tar archive.` } };
  }
  if (format === 'tar') return { status: 'skipped', format, reason: 'tar' };

  let raw;
  try {
    raw = await listZipEntries(file);
  } catch (error) {
    if (!(error instanceof ZipListingError)) throw error;
    if (error.kind === 'too-large') return { status: 'skipped', format, reason: 'too-large' };
    return { status: 'blocked', format: 'zip', error: { code: error.kind === 'not-a-zip' ? ProcessingCode.NotAZip : ProcessingCode.Corrupt, message: error.message } };
  }

  const entries: LayoutEntryInput[] = [];
  const seen = new Set<string>();
  for (const entry of raw) {
    const normalized = normalizeEntryName(entry.name);
    if (!normalized.ok) {
      // Control characters shown escaped (\xNN), as the server reports them.
      const shown = printableName(entry.name);
      return { status: 'blocked', format, error: { code: ProcessingCode.UnsafePath, message: `Unsafe path in the archive: "${shown}" ${normalized.reason}.`, file: shown } };
    }
    const isDirectory = normalized.isDirectory || normalized.name === '';
    if (!isDirectory) {
      if (seen.has(normalized.name)) return { status: 'blocked', format, error: { code: ProcessingCode.DuplicateEntry, message: `The archive holds "${normalized.name}" twice.`, file: normalized.name } };
      seen.add(normalized.name);
      if (entry.encrypted) {
        return { status: 'blocked', format, error: { code: ProcessingCode.Encrypted, message: `${normalized.name} is encrypted; upload an archive without a password.`, file: normalized.name } };
      }
    }
    entries.push({ name: normalized.name, isDirectory });
  }

  const detected = detectLayout(entries, { task: layoutTask(task) });
  if (!detected.ok) return { status: 'blocked', format, error: detected.error };
  const resolved = resolveLayout(entries, detected.layout);
  const definitive = detected.layout.kind === 'classify';
  if (!resolved.ok) {
    if (definitive) return { status: 'blocked', format, error: resolved.error };
    return {
      status: 'ok',
      format,
      entries: entries.length,
      summary: { kind: detected.layout.kind, root: detected.layout.root, yamlPath: detected.layout.yamlPath, description: detected.layout.description, splits: {} },
      issues: [...detected.layout.issues, { severity: 'warning', code: resolved.error.code, message: `${resolved.error.message} If ${detected.layout.yamlPath ?? 'the yaml'} names other folders, the server will use those.`, ...(resolved.error.file ? { file: resolved.error.file } : {}) }],
    };
  }
  const issues = resolved.layout.issues;
  const firstError = issues.find((i) => i.severity === 'error');
  if (definitive && firstError) return { status: 'blocked', format, error: { code: firstError.code, message: firstError.message, ...(firstError.file ? { file: firstError.file } : {}) } };
  // Without the yaml, errors about folders are only likely: shown, but the upload may go on.
  return { status: 'ok', format, entries: entries.length, summary: summarizeLayout(resolved.layout), issues };
}
