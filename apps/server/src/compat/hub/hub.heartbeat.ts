import type { AppContext } from '../../context.js';
import { newId } from '../../platform/ids.js';
import * as training from '../../modules/training/training.service.js';

/** HUB clients heartbeat every 300 s (hub-protocol §5.5): a beat after longer than this starts a new status push. */
export const HUB_STALE_AFTER_MS = 15 * 60_000;

/**
 * HUB heartbeat (hub-protocol §5.5): a sign of life; answers the agentId the client echoes next time
 * (one per model, kept across beats).
 */
export async function recordHeartbeat(ctx: AppContext, userId: string, modelId: string, body: { agent?: unknown; agentId?: unknown }) {
  const model = await training.reportableModel(ctx, userId, modelId);
  const before = await training.runOf(ctx, model.id);
  const agentId = before?.agentId ?? `agent${newId()}`;
  const agent = typeof body.agent === 'string' ? body.agent.slice(0, 100) : (before?.agent ?? null);
  const wasLive = model.trainHeartbeat !== null && ctx.clock.now().getTime() - model.trainHeartbeat.getTime() < HUB_STALE_AFTER_MS;
  // A process's first heartbeat carries no agentId (hub-protocol §5.5): after earlier reports it is a
  // resume, a new run of the model (from its last checkpoint; after a Stop, a failure or a timeout
  // too, ADR 0020). A Stop pressed on the run before applies to that run only.
  const resumed =
    Boolean(before) &&
    (body.agentId === null || body.agentId === undefined) &&
    before!.outcome !== 'completed' &&
    (!model.trainEnd || before!.outcome !== 'running');
  if (resumed) await training.resumeRun(ctx, model.id, 'hub', { agent, agentId, cancelRequestedAt: null, cancelRequestedBy: null });
  const { model: updated } = await training.report(ctx, await training.reloadModel(ctx, model), 'hub', { agent, agentId });
  // Only status transitions are worth a push; a beat every 300 s of a live run changes nothing visible.
  if (!wasLive || !before) await training.announce(ctx, updated);
  return agentId;
}
