import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yauzl from 'yauzl';
import { ErrorCode, roboflowTask } from '@sightline/contracts';
import type { AppContext } from '../../context.js';
import type { JobHelpers } from '../../platform/jobs/job-queue.js';
import { AppError } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { createDataset, finishUpload, readableDataset, requestProcessing } from '../datasets/datasets.service.js';
import { purgeDataset } from '../trash/trash.service.js';
import { integrationsRepository as repo, type ImportRow } from './integrations.repository.js';
import { access, clientFor, IMPORT_QUEUE } from './integrations.service.js';
import { redactSecret, RoboflowError, type RoboflowClient } from './roboflow.client.js';
import { blobKeys } from '../../platform/storage/blob-keys.js';

class Cancelled extends Error {}
const IMAGE_EXT = /\.(jpe?g|png|bmp|webp|tiff?|gif)$/i;

/**
 * The roboflow.import job: export (poll while Roboflow generates the zip) → download the
 * short-lived link to a temp file → check the zip → only then create the dataset and hand the
 * archive to the normal upload + processing pipeline. Any failure before that point leaves no
 * dataset behind. Idempotent: a run after a crash starts over (and reuses the dataset it made).
 */
export function registerRoboflowImportJob(ctx: AppContext) {
  ctx.jobs.register(
    IMPORT_QUEUE,
    async (job, helpers) => {
      const imp = await repo.import(ctx.db, String(job.payload.importId));
      if (!imp || imp.status === 'imported' || imp.status === 'cancelled') return;
      if (imp.cancelRequestedAt) return void (await finish(ctx, imp.id, { status: 'cancelled' }));
      const tmp = path.join(os.tmpdir(), `sl-roboflow-${imp.id}-${newId()}.zip`);
      const abort = new AbortController();
      const watch = setInterval(() => {
        void repo.import(ctx.db, imp.id).then(
          (r) => r?.cancelRequestedAt && abort.abort(),
          () => undefined,
        );
      }, 500);
      watch.unref();
      let key: string | null = null;
      try {
        const found = await access(ctx, imp.userId, imp.workspace, imp.project);
        key = found.apiKey;
        await run(ctx, imp, clientFor(ctx, key), tmp, abort.signal, helpers);
      } catch (err) {
        if (abort.signal.aborted || err instanceof Cancelled) return void (await finish(ctx, imp.id, { status: 'cancelled' }));
        const message = redactSecret((err as Error).message ?? String(err), key);
        const code = err instanceof AppError ? err.code : ErrorCode.Unknown;
        ctx.log.warn(
          { importId: imp.id, project: `${imp.workspace}/${imp.project}`, version: imp.version, code, attempt: job.attempts, err: message },
          'roboflow import failed',
        );
        if (err instanceof RoboflowError && err.retryable && job.attempts < job.maxAttempts) {
          await repo.updateImport(ctx.db, imp.id, {
            status: 'queued',
            errorCode: code,
            error: `${message} Retrying automatically.`,
            updatedAt: ctx.clock.now(),
          });
          throw new Error(message);
        }
        await finish(ctx, imp.id, { status: 'failed', errorCode: code, error: message });
      } finally {
        clearInterval(watch);
        fs.rmSync(tmp, { force: true });
      }
    },
    {
      // The job ended failed without the handler saying so (its process died on the last attempt): the import fails too.
      onFailed: async (job, error) => {
        const imp = await repo.import(ctx.db, String(job.payload.importId));
        if (!imp || ['imported', 'cancelled', 'failed'].includes(imp.status)) return;
        await finish(ctx, imp.id, { status: 'failed', errorCode: ErrorCode.Unknown, error });
      },
    },
  );
}

async function finish(ctx: AppContext, id: string, patch: Partial<ImportRow>) {
  const now = ctx.clock.now();
  await repo.updateImport(ctx.db, id, { phase: null, ...patch, finishedAt: now, updatedAt: now });
}

async function run(ctx: AppContext, imp: ImportRow, client: RoboflowClient, tmp: string, signal: AbortSignal, helpers: JobHelpers) {
  const step = async (patch: Partial<ImportRow>) => {
    if (signal.aborted) throw new Cancelled();
    await repo.updateImport(ctx.db, imp.id, { ...patch, updatedAt: ctx.clock.now() });
    await helpers.progress({ phase: patch.phase, done: patch.done, total: patch.total });
  };
  await step({ status: 'exporting', phase: 'export', done: 0, total: 100, error: null, errorCode: null });
  const { project, versions } = await client.project(imp.workspace, imp.project);
  const task = roboflowTask(project.type);
  if (!task) throw new AppError(400, ErrorCode.RoboflowUnsupportedType, `Projects of type "${project.type}" cannot be imported.`);
  const version = versions.find((v) => Number(v.id.split('/').pop()) === imp.version);
  if (!version) throw new AppError(404, ErrorCode.RoboflowNotFound, `Version ${imp.version} of "${project.name}" no longer exists on Roboflow.`);
  if (Number(version.images ?? 0) <= 0) throw new AppError(400, ErrorCode.RoboflowNoImages, `Version ${imp.version} of "${project.name}" has no images.`);

  const exportLink = () => waitForExport(ctx, client, imp, signal, (p) => step({ phase: 'export', done: Math.round(p * 100), total: 100 }));
  let link = await exportLink();
  await step({ status: 'downloading', phase: 'download', done: 0, total: 0 });
  const download = () => client.download(link, tmp, { signal, onBytes: (done, total) => void step({ phase: 'download', done, total }).catch(() => undefined) });
  let bytes: number;
  try {
    bytes = await download();
  } catch (err) {
    // Export links are short-lived: ask for a fresh one once, then give up with the reason.
    if (!(err instanceof RoboflowError && err.code === ErrorCode.RoboflowLinkExpired)) throw err;
    link = await exportLink();
    try {
      bytes = await download();
    } catch (again) {
      if (again instanceof RoboflowError && again.code === ErrorCode.RoboflowLinkExpired)
        throw new RoboflowError(
          410,
          ErrorCode.RoboflowLinkExpired,
          'The download link Roboflow gave for the export expired before the download started, twice. Retry the import.',
        );
      throw again;
    }
  }
  const images = await countZipImages(tmp);
  if (images === 0) throw new AppError(400, ErrorCode.RoboflowNoImages, `The export of version ${imp.version} contains no images; nothing was imported.`);
  if (signal.aborted) throw new Cancelled();

  // From here on a dataset exists; if handing it over fails, it goes again so nothing half-made stays.
  const existing = imp.datasetId ? await readableDataset(ctx, imp.userId, imp.datasetId).catch(() => null) : null;
  const dataset =
    existing ??
    (await createDataset(ctx, imp.userId, {
      name: `${project.name} v${imp.version}`.slice(0, 100),
      description: `Imported from Roboflow: ${imp.workspace}/${imp.project}, version ${imp.version}${version.name ? ` (${version.name})` : ''}.`,
      task,
      provider: 'roboflow',
      roboflow: { type: imp.source, totalVersions: Math.max(Number(project.versions ?? 0), versions.length) },
    }));
  await repo.updateImport(ctx.db, imp.id, { datasetId: dataset.id, updatedAt: ctx.clock.now() });
  const filename = `${imp.project}-v${imp.version}-${imp.format}.zip`;
  try {
    await finishUpload(ctx, {
      id: imp.id,
      uid: imp.userId,
      path: blobKeys.datasetFile(imp.userId, dataset.id, filename),
      filename,
      bytes,
      open: () => fs.createReadStream(tmp),
    });
    await requestProcessing(ctx, imp.userId, dataset.id);
  } catch (err) {
    if (!existing) {
      await purgeDataset(ctx, dataset).catch(() => undefined);
      await repo.updateImport(ctx.db, imp.id, { datasetId: null, updatedAt: ctx.clock.now() });
    }
    throw err;
  }
  await finish(ctx, imp.id, { status: 'imported', datasetId: dataset.id, error: null, errorCode: null });
}

/** Polls the export while Roboflow answers "still generating" (202), up to the configured deadline. */
async function waitForExport(ctx: AppContext, client: RoboflowClient, imp: ImportRow, signal: AbortSignal, onProgress: (p: number) => Promise<void>) {
  const { exportTimeoutMs, pollMs } = ctx.config.roboflow;
  const deadline = Date.now() + exportTimeoutMs;
  for (;;) {
    if (signal.aborted) throw new Cancelled();
    const state = await client.exportState(imp.workspace, imp.project, imp.version, imp.format);
    if (state.state === 'ready') return state.link;
    await onProgress(state.progress);
    if (Date.now() + pollMs > deadline) {
      throw new RoboflowError(
        504,
        ErrorCode.RoboflowExportTimeout,
        `Roboflow was still generating the export of version ${imp.version} after ${Math.round(exportTimeoutMs / 1000)} s (at ${Math.round(state.progress * 100)}%). Nothing was imported; retry later.`,
      );
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** Opens the zip's central directory: a truncated or corrupt download fails here, before any dataset exists. */
function countZipImages(file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const bad = (why: string) =>
      new RoboflowError(502, ErrorCode.RoboflowBadArchive, `The export Roboflow sent is not a complete zip (${why}); nothing was imported. Retry the import.`);
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(bad(err?.message ?? 'unreadable'));
      let images = 0;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (IMAGE_EXT.test(entry.fileName)) images += 1;
        zip.readEntry();
      });
      zip.on('end', () => resolve(images));
      zip.on('error', (e: Error) => reject(bad(e.message)));
      zip.readEntry();
    });
  });
}
