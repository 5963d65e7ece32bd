import { and, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { auditLog, users } from '../../platform/db/schema.js';

export type AuditRow = typeof auditLog.$inferSelect;
export type NewAuditRow = typeof auditLog.$inferInsert;

export interface AuditFilter {
  action?: string;
  actions?: readonly string[];
  actor?: string;
  target?: string;
  userId?: string;
  from?: Date;
  to?: Date;
  before?: number;
}

/** The audit log: INSERT and SELECT only (the table's trigger refuses UPDATE and DELETE). */
export const auditRepository = {
  insert: async (db: Db, row: NewAuditRow) => {
    await db.insert(auditLog).values(row);
  },
  emailOf: async (db: Db, userId: string) => (await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1))[0]?.email ?? null,
  userIdByEmail: async (db: Db, email: string) =>
    (await db.select({ id: users.id }).from(users).where(eq(users.email, email.toLowerCase())).limit(1))[0]?.id ?? null,
  /** Newest first, keyset on seq. */
  list: async (db: Db, f: AuditFilter, limit: number) => {
    const where: SQL[] = [];
    if (f.action) where.push(f.action.endsWith('.') ? sql`${auditLog.action} LIKE ${`${f.action}%`}` : eq(auditLog.action, f.action));
    if (f.actions) where.push(inArray(auditLog.action, [...f.actions]));
    if (f.actor) where.push(eq(auditLog.actorId, f.actor));
    if (f.target) where.push(or(eq(auditLog.targetId, f.target), eq(auditLog.userId, f.target))!);
    if (f.userId) where.push(eq(auditLog.userId, f.userId));
    if (f.from) where.push(gte(auditLog.createdAt, f.from));
    if (f.to) where.push(lt(auditLog.createdAt, f.to));
    if (f.before) where.push(lt(auditLog.seq, f.before));
    return db
      .select()
      .from(auditLog)
      .where(where.length ? and(...where) : undefined)
      .orderBy(desc(auditLog.seq))
      .limit(limit);
  },
};
