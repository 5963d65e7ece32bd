import type { AppContext } from '../../context.js';
import { analyticsEvents } from '../../platform/db/schema.js';
import { newId } from '../../platform/ids.js';

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
  | 'empty_trash';

export async function track(ctx: Pick<AppContext, 'db' | 'clock'>, userId: string | null, name: AnalyticsEventName, properties: Record<string, unknown> = {}) {
  await ctx.db.insert(analyticsEvents).values({ id: newId(), userId, name, properties, createdAt: ctx.clock.now() });
}
