import { readFileSync } from 'node:fs';
import path from 'node:path';
import { precheckArchive, type PrecheckSource } from '@sightline/contracts/dataset-layout';
import { describe, expect, it } from 'vitest';
import { openArchive } from './archive.js';
import { processArchive, type ProcessedImage } from './process-archive.js';

// ADR 0029: the browser's check (precheckArchive) and the server's processing (processArchive) apply the
// same rules, and both leave out exactly the pairs the real ultralytics 8.3.166 verify_image_label drops,
// as recorded by scripts/fixtures/verify-image-label.py.
const FIXTURES = path.resolve(import.meta.dirname, '../../../../../../e2e/fixtures');
const ARCHIVE = path.join(FIXTURES, 'bad-lines.zip');
interface ExpectedPair {
  image: string;
  label: string | null;
  verdict: 'kept' | 'dropped' | 'repaired';
}
const expected = JSON.parse(readFileSync(path.join(FIXTURES, 'bad-lines.expected.json'), 'utf8')) as {
  ultralytics: string;
  pairs: ExpectedPair[];
  dropped: string[];
  repaired: string[];
};
const kept = expected.pairs
  .filter((p) => p.verdict !== 'dropped')
  .map((p) => p.image)
  .sort();

/** The browser's view of the archive: whole small entries and the ends of images. */
async function archiveSource(): Promise<PrecheckSource & { close(): Promise<void> }> {
  const archive = await openArchive(ARCHIVE);
  const files = archive.entries.toArray().filter((e) => !e.isDirectory);
  const byName = new Map(files.map((e) => [e.name, e]));
  const read = async (name: string) => {
    const entry = byName.get(name);
    return entry ? (await archive.readEntry(entry.position, 1 << 30)).data : null;
  };
  return {
    entries: files.map((e) => ({ name: e.name, isDirectory: false, size: e.uncompressedSize })),
    readWhole: read,
    readSample: async (name, head, tail) => {
      const data = await read(name);
      return data ? { size: data.length, head: data.subarray(0, head), tail: data.subarray(data.length - tail) } : null;
    },
    close: () => archive.close(),
  };
}

/** Pairs flagged as repaired: a warning on the image or on its label file. */
function repairedOf(warnings: { file?: string; code: string }[]): string[] {
  const images = new Set<string>();
  for (const w of warnings) {
    if (w.code !== 'image/truncated' && w.code !== 'label/duplicate-row') continue;
    const pair = expected.pairs.find((p) => p.image === w.file || p.label === w.file);
    if (pair) images.add(pair.image);
  }
  return [...images].sort();
}

describe('dataset rules against the real verify_image_label (bad-lines fixture)', () => {
  it(`the server's processing leaves out what ultralytics ${expected.ultralytics} drops, repairs what it repairs, and is Ready`, async () => {
    const images: Omit<ProcessedImage, 'data'>[] = [];
    const result = await processArchive({ archivePath: ARCHIVE, task: 'detect', onImage: ({ data: _data, ...rest }) => void images.push(rest) });
    expect(result.fatal).toBeNull();
    expect(result.ok).toBe(true);
    expect(result.report.errorCount).toBe(0);
    expect(result.report.leftOut!.map((e) => e.image).sort()).toEqual([...expected.dropped].sort());
    expect(images.map((i) => i.entryName).sort()).toEqual(kept);
    expect(repairedOf(result.report.warnings)).toEqual([...expected.repaired].sort());
    expect(images.find((i) => i.name === 't09_duplicate_rows.jpg')!.labels).toHaveLength(2);
    expect(result.stats?.summary).toMatchObject({ images: kept.length });
  });

  it('the browser check (same contract code, header and end bytes only) lists the same pairs', async () => {
    const source = await archiveSource();
    try {
      const result = await precheckArchive(source, 'detect');
      expect(result.fatal).toBeNull();
      expect(result.report.errorCount).toBe(0);
      expect(result.report.leftOut!.map((e) => e.image).sort()).toEqual([...expected.dropped].sort());
      expect(repairedOf(result.report.warnings)).toEqual([...expected.repaired].sort());
      expect((result.usable.train ?? 0) + (result.usable.val ?? 0)).toBe(kept.length);
      const server = await processArchive({ archivePath: ARCHIVE, task: 'detect' });
      // Same reasons, not only the same images.
      expect(result.report.leftOut).toEqual(server.report.leftOut);
    } finally {
      await source.close();
    }
  });
});
