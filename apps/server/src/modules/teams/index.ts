/**
 * Public surface of the teams module for other modules (ADR 0033): its repository is private.
 */
import { teamsRepository } from './teams.repository.js';

export type { TeamRow } from './teams.repository.js';

export const teamQueries = {
  /** A live team (not deleted, owner not deleted), or null. */
  byId: teamsRepository.byId,
};
