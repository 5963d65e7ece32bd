/**
 * Public surface of platform/uploads for modules (ADR 0033): its repository is private to the
 * folder; datasets/ reads the caller's recent uploads and raises their byte counts through these queries.
 */
import { uploadsRepository } from './uploads.repository.js';

export type { UploadRow } from './uploads.repository.js';

export const uploadQueries = {
  recentOf: uploadsRepository.recentOf,
  /** Active jobs never shows fewer bytes than the store holds (ADR 0029). */
  raiseOffset: uploadsRepository.raiseOffset,
};
