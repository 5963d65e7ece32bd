/**
 * Public surface of the dataset-versions module (ADR 0033, 0038): what training (the clients' `ul://`
 * and zip links, lineage) and the trash use. Its repository is private.
 */
export type { VersionRow, VersionImageRow } from './dataset-versions.repository.js';
export {
  liveVersionByNumber,
  purgeVersion,
  recordLineage,
  restoreVersion,
  trashedVersions,
  versionById,
  versionForClient,
  versionForWorkingRun,
  versionNumbersOf,
  versionImages,
  versionsDeletedBefore,
  versionZipName,
  zipOfVersion,
} from './dataset-versions.service.js';
