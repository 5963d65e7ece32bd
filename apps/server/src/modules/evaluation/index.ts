/**
 * Public surface of the evaluation module for other modules (ADR 0033): labelling's "model and
 * labels disagree" review filter reads which images an evaluation's mistakes are on.
 */
import { evaluationRepository } from './evaluation.repository.js';

export const evaluationQueries = {
  mistakeImageIds: evaluationRepository.mistakeImageIds,
};
