/**
 * Public surface of the users module for other modules (ADR 0033): its repository is private.
 * auth/ creates accounts and signs them in through these queries; storage/ reads a user's plan
 * and usage; the rest goes through users.service.ts.
 */
import { usersRepository } from './users.repository.js';

export type { UserRow } from './users.repository.js';

export const userQueries = {
  byId: usersRepository.byId,
  byEmail: usersRepository.byEmail,
  byUsername: usersRepository.byUsername,
  count: usersRepository.count,
  insert: usersRepository.insert,
  insertSettings: usersRepository.insertSettings,
  update: usersRepository.update,
  /** Social sign-in identities (auth/oauth.ts). */
  identity: usersRepository.identity,
  identities: usersRepository.identities,
  addIdentity: usersRepository.addIdentity,
};
