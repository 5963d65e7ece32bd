/**
 * Public surface of the models module for other modules (ADR 0033): its repository is private, so
 * other modules read and write models through these narrow queries or through models.service.ts.
 */
import { modelsRepository } from './models.repository.js';

export type { ModelFileRow, ModelRow } from './models.repository.js';

export const modelQueries = {
  byId: modelsRepository.byId,
  bySlug: modelsRepository.bySlug,
  /** Models of a project (the trash cascade; deleted ones when asked). */
  inProject: modelsRepository.inProject,
  files: modelsRepository.files,
  update: modelsRepository.update,
  upsertFile: modelsRepository.upsertFile,
  refreshBytes: modelsRepository.refreshBytes,
};
