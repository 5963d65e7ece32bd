import { errors } from '../../platform/http/errors.js';
import type { AgentJobRow, AgentRow } from './agents.repository.js';

type Caller = { id: string; roles: string[] };
const isAdmin = (c: Caller) => c.roles.includes('admin');

/** Shared-pool agents are the admins'; a private agent is its owner's. */
export function assertCanManageAgent(caller: Caller, agent: AgentRow) {
  if (isAdmin(caller)) return;
  if (agent.ownerUserId !== caller.id) throw errors.notFound('Agent');
}

/** A job (its log, its cancel) is the owner's business, and the admins'. */
export function assertCanSeeJob(caller: Caller, job: AgentJobRow) {
  if (isAdmin(caller)) return;
  if (job.userId !== caller.id) throw errors.notFound('Job');
}
