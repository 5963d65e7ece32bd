/**
 * Public surface of the projects module for other modules (ADR 0033): its repository is private, so
 * other modules read and write projects through these narrow queries or through projects.service.ts.
 */
import { projectsRepository } from './projects.repository.js';

export type { ProjectRow } from './projects.repository.js';

export const projectQueries = {
  byId: projectsRepository.byId,
  bySlug: projectsRepository.bySlug,
  /** Names of projects by id (a model list shows its project's name). */
  names: projectsRepository.names,
  update: projectsRepository.update,
  remove: projectsRepository.remove,
};
