import type { AppContext } from '../../context.js';
import { newId } from '../../platform/ids.js';
import { analyticsRepository } from './analytics.repository.js';

/** Analytics event names of spec §1. */
export type AnalyticsEventName =
  | 'sign_up'
  | 'sign_in'
  | 'sign_out'
  | 'update_profile'
  | 'update_password'
  | 'update_plan'
  | `${'create' | 'update' | 'delete' | 'share'}_${'dataset' | 'project' | 'model'}`
  | 'export_model'
  | 'infer_model'
  | 'empty_trash'
  | `${'create' | 'update' | 'delete' | 'leave' | 'transfer'}_team`
  | `${'send' | 'accept' | 'reject' | 'cancel'}_team_invite`
  | `${'remove' | 'update'}_team_member`
  | `${'add' | 'remove'}_team_item`;

export async function track(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string | null, name: AnalyticsEventName, properties: Record<string, unknown> = {}) {
  await analyticsRepository.insert(ctx.db, { id: newId(), userId, name, properties, createdAt: ctx.clock.now() });
}
