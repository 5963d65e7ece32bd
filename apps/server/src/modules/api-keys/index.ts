/**
 * Public surface of the api-keys module for other modules (ADR 0033): its repository is private.
 * auth/ resolves an `x-api-key` to its live key and owner, and marks it used.
 */
import { apiKeysRepository } from './api-keys.repository.js';

export type { ApiKeyRow } from './api-keys.repository.js';

export const apiKeyQueries = {
  activeWithUser: apiKeysRepository.activeWithUser,
  touch: apiKeysRepository.touch,
};
