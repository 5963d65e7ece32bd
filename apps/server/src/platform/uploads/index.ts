/**
 * Public surface of platform/uploads for modules (ADR 0033): its repository is private to the
 * folder; datasets/ reads the caller's recent uploads through this query.
 */
import { uploadsRepository } from './uploads.repository.js';

export type { UploadRow } from './uploads.repository.js';

export const uploadQueries = {
  recentOf: uploadsRepository.recentOf,
};
