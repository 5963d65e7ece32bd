/**
 * Public surface of the datasets module for other modules (ADR 0033): its repository is private, so
 * other modules read and write datasets through these narrow queries or through datasets.service.ts.
 */
import { datasetsRepository } from './datasets.repository.js';

export type { DatasetRow } from './datasets.repository.js';

export const datasetQueries = {
  byId: datasetsRepository.byId,
  /** Names of datasets by id (a model shows the dataset it was trained on). */
  names: datasetsRepository.names,
  update: datasetsRepository.update,
};
