import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { agentJobLogs, agentJobs, agents, gpuTypes, modelExports, models, users, type AgentJobStatus } from '../../platform/db/schema.js';

export type AgentRow = typeof agents.$inferSelect;
export type AgentJobRow = typeof agentJobs.$inferSelect;
export type GpuTypeRow = typeof gpuTypes.$inferSelect;
export type ModelExportRow = typeof modelExports.$inferSelect;

const ACTIVE: AgentJobStatus[] = ['claimed', 'running'];

/** The only place with SQL for agents, their jobs and logs. */
export const agentsRepository = {
  insertAgent: async (db: Db, row: typeof agents.$inferInsert) => (await db.insert(agents).values(row).returning())[0]!,
  agentByTokenHash: async (db: Db, hash: string) => (await db.select().from(agents).where(eq(agents.tokenHash, hash)).limit(1))[0] ?? null,
  agentById: async (db: Db, id: string) => (await db.select().from(agents).where(eq(agents.id, id)).limit(1))[0] ?? null,
  updateAgent: async (db: Db, id: string, patch: Partial<typeof agents.$inferInsert>) =>
    (await db.update(agents).set(patch).where(eq(agents.id, id)).returning())[0] ?? null,
  listAgents: async (db: Db, filter: { ownerUserId?: string | null } = {}) =>
    db
      .select()
      .from(agents)
      .where(
        filter.ownerUserId === undefined ? undefined : filter.ownerUserId === null ? isNull(agents.ownerUserId) : eq(agents.ownerUserId, filter.ownerUserId),
      )
      .orderBy(desc(agents.createdAt)),
  /** Agents that heartbeated since `since` and may take `userId`'s jobs (shared pool, or theirs). */
  onlineAgents: async (db: Db, since: Date, userId?: string) =>
    db
      .select()
      .from(agents)
      .where(
        and(
          isNull(agents.revokedAt),
          gt(agents.lastHeartbeatAt, since),
          userId === undefined ? undefined : or(isNull(agents.ownerUserId), eq(agents.ownerUserId, userId)),
        ),
      ),

  gpuTypes: async (db: Db) => db.select().from(gpuTypes).orderBy(asc(gpuTypes.hourlyRateMicro)),
  gpuType: async (db: Db, id: string) => (await db.select().from(gpuTypes).where(eq(gpuTypes.id, id)).limit(1))[0] ?? null,
  upsertGpuType: async (db: Db, row: typeof gpuTypes.$inferInsert) =>
    (
      await db
        .insert(gpuTypes)
        .values(row)
        .onConflictDoUpdate({
          target: gpuTypes.id,
          set: {
            name: row.name,
            device: row.device,
            match: row.match,
            hourlyRateMicro: row.hourlyRateMicro,
            imagesPerSecond: row.imagesPerSecond,
            enabled: row.enabled,
          },
        })
        .returning()
    )[0]!,
  deleteGpuType: async (db: Db, id: string) => (await db.delete(gpuTypes).where(eq(gpuTypes.id, id)).returning({ id: gpuTypes.id })).length > 0,

  insertJob: async (db: Db, row: typeof agentJobs.$inferInsert) => (await db.insert(agentJobs).values(row).returning())[0]!,
  job: async (db: Db, id: string) => (await db.select().from(agentJobs).where(eq(agentJobs.id, id)).limit(1))[0] ?? null,
  jobsByIds: async (db: Db, ids: string[]) => (ids.length ? db.select().from(agentJobs).where(inArray(agentJobs.id, ids)) : []),
  updateJob: async (db: Db, id: string, patch: Partial<typeof agentJobs.$inferInsert>, onlyIn?: AgentJobStatus[]) =>
    (
      await db
        .update(agentJobs)
        .set(patch)
        .where(and(eq(agentJobs.id, id), onlyIn ? inArray(agentJobs.status, onlyIn) : undefined))
        .returning()
    )[0] ?? null,
  activeJobsOfAgent: async (db: Db, agentId: string) =>
    db
      .select()
      .from(agentJobs)
      .where(and(eq(agentJobs.agentId, agentId), inArray(agentJobs.status, ACTIVE))),
  activeJobsOfAgents: async (db: Db, agentIds: string[]) =>
    agentIds.length
      ? db
          .select()
          .from(agentJobs)
          .where(and(inArray(agentJobs.agentId, agentIds), inArray(agentJobs.status, ACTIVE)))
      : [],
  /** Extends the lease of the agent's live jobs among `ids`. */
  renewLeases: async (db: Db, agentId: string, ids: string[], now: Date, leaseUntil: Date) =>
    ids.length
      ? db
          .update(agentJobs)
          .set({ leaseUntil, heartbeatAt: now, updatedAt: now })
          .where(and(eq(agentJobs.agentId, agentId), inArray(agentJobs.id, ids), inArray(agentJobs.status, ACTIVE)))
          .returning()
      : [],
  expiredJobs: async (db: Db, now: Date) =>
    db
      .select()
      .from(agentJobs)
      .where(and(inArray(agentJobs.status, ACTIVE), lt(agentJobs.leaseUntil, now))),
  /** id → name of the models the jobs work on (the admin's queued jobs read names, not ids). */
  modelNames: async (db: Db, ids: string[]) =>
    new Map(ids.length ? (await db.select({ id: models.id, name: models.name }).from(models).where(inArray(models.id, ids))).map((m) => [m.id, m.name]) : []),
  listJobs: async (db: Db, filter: { statuses?: AgentJobStatus[]; modelId?: string; kind?: 'train' | 'export'; limit?: number }) =>
    db
      .select()
      .from(agentJobs)
      .where(
        and(
          filter.statuses ? inArray(agentJobs.status, filter.statuses) : undefined,
          filter.modelId ? eq(agentJobs.modelId, filter.modelId) : undefined,
          filter.kind ? eq(agentJobs.kind, filter.kind) : undefined,
        ),
      )
      .orderBy(desc(agentJobs.createdAt))
      .limit(filter.limit ?? 200),
  latestTrainJob: async (db: Db, modelId: string) =>
    (
      await db
        .select()
        .from(agentJobs)
        .where(and(eq(agentJobs.modelId, modelId), eq(agentJobs.kind, 'train')))
        .orderBy(desc(agentJobs.createdAt))
        .limit(1)
    )[0] ?? null,

  /**
   * Claims the oldest queued job this agent may run, once: FOR UPDATE SKIP LOCKED makes two agents
   * polling at the same moment take different jobs (or one takes it and the other none). Rules: GPU
   * type must match when the job names one; a private agent only takes its owner's uncharged jobs;
   * the server's built-in worker only exports (ADR 0022); training only when the agent can train
   * (`can.train`: the Platform protocol, ADR 0021) and within the owner's plan concurrency.
   */
  claim: async (
    db: Db,
    agent: AgentRow,
    can: { train: boolean },
    concurrency: Record<string, number>,
    now: Date,
    leaseUntil: Date,
  ): Promise<AgentJobRow | null> =>
    db.transaction(async (tx) => {
      const limits = sql.join(
        Object.entries(concurrency).map(([plan, n]) => sql`WHEN ${plan} THEN ${n}`),
        sql` `,
      );
      const res = await tx.execute(sql`
        SELECT j.id FROM agent_jobs j JOIN users u ON u.id = j.user_id
        WHERE j.status = 'queued'
          AND (j.gpu_type_id IS NULL OR j.gpu_type_id = ${agent.gpuTypeId})
          AND (${agent.ownerUserId}::text IS NULL OR (j.user_id = ${agent.ownerUserId} AND NOT j.charged))
          AND (NOT ${agent.builtin} OR j.kind = 'export')
          AND (j.kind <> 'train' OR (${can.train}::boolean AND (
            SELECT count(*) FROM agent_jobs r
            WHERE r.user_id = j.user_id AND r.kind = 'train' AND r.status IN ('claimed', 'running')
          ) < (CASE u.plan ${limits} ELSE 1 END)))
        ORDER BY j.created_at, j.id
        LIMIT 1
        FOR UPDATE OF j SKIP LOCKED`);
      const id = (res as unknown as { rows: Array<{ id: string }> }).rows[0]?.id;
      if (!id) return null;
      const [row] = await tx
        .update(agentJobs)
        .set({ status: 'claimed', agentId: agent.id, attempts: sql`${agentJobs.attempts} + 1`, claimedAt: now, leaseUntil, heartbeatAt: now, updatedAt: now })
        .where(and(eq(agentJobs.id, id), eq(agentJobs.status, 'queued')))
        .returning();
      return row ?? null;
    }),

  appendLog: async (db: Db, jobId: string, seq: number, content: string, now: Date) =>
    db.insert(agentJobLogs).values({ jobId, seq, content, createdAt: now }).onConflictDoNothing(),
  logs: async (db: Db, jobId: string, afterSeq: number, limit: number) =>
    db
      .select()
      .from(agentJobLogs)
      .where(and(eq(agentJobLogs.jobId, jobId), gt(agentJobLogs.seq, afterSeq)))
      .orderBy(asc(agentJobLogs.seq))
      .limit(limit),
  lastLogs: async (db: Db, jobId: string, chunks: number) =>
    (await db.select().from(agentJobLogs).where(eq(agentJobLogs.jobId, jobId)).orderBy(desc(agentJobLogs.seq)).limit(chunks)).reverse(),

  /** The built-in export worker's row of one host (ADR 0022). */
  builtinAgent: async (db: Db, hostname: string) =>
    (
      await db
        .select()
        .from(agents)
        .where(and(eq(agents.builtin, true), eq(agents.hostname, hostname)))
        .orderBy(desc(agents.createdAt))
        .limit(1)
    )[0] ?? null,
  queuedExportJobs: async (db: Db) =>
    (
      await db
        .select({ id: agentJobs.id })
        .from(agentJobs)
        .where(and(eq(agentJobs.kind, 'export'), eq(agentJobs.status, 'queued')))
        .limit(1)
    ).length,

  userPlan: async (db: Db, userId: string) =>
    (await db.select({ plan: users.plan, wallet: users.walletBalance, username: users.username }).from(users).where(eq(users.id, userId)).limit(1))[0] ?? null,

  // exports
  insertExport: async (db: Db, row: typeof modelExports.$inferInsert) => (await db.insert(modelExports).values(row).returning())[0]!,
  exportById: async (db: Db, id: string) => (await db.select().from(modelExports).where(eq(modelExports.id, id)).limit(1))[0] ?? null,
  updateExport: async (db: Db, id: string, patch: Partial<typeof modelExports.$inferInsert>) =>
    (await db.update(modelExports).set(patch).where(eq(modelExports.id, id)).returning())[0] ?? null,
  exportsOfModel: async (db: Db, modelId: string) =>
    db.select().from(modelExports).where(eq(modelExports.modelId, modelId)).orderBy(desc(modelExports.createdAt)),
  latestExport: async (db: Db, modelId: string, format: string) =>
    (
      await db
        .select()
        .from(modelExports)
        .where(and(eq(modelExports.modelId, modelId), eq(modelExports.format, format)))
        .orderBy(desc(modelExports.createdAt))
        .limit(1)
    )[0] ?? null,
  /** Succeeded exports whose blob is still in use for this model's format (not replaced by a newer one). */
  exportsWithBlob: async (db: Db, blobKey: string) =>
    db
      .select({ id: modelExports.id })
      .from(modelExports)
      .where(and(eq(modelExports.blobKey, blobKey), isNotNull(modelExports.blobKey))),
  /**
   * Models trained through a client protocol (a run row) that ended recently with best weights but
   * no ONNX file and no ONNX export yet: they get one queued by themselves (predict answers
   * error/no-onnx until then). Uploaded `.pt` weights get theirs at upload (ADR 0022).
   */
  modelsNeedingOnnx: async (db: Db, since: Date) => {
    const res = await db.execute(sql`
      SELECT m.id, m.user_id FROM models m
      WHERE m.train_end > ${since} AND m.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM model_training r WHERE r.model_id = m.id)
        AND EXISTS (SELECT 1 FROM model_files f WHERE f.model_id = m.id AND f.kind = 'best')
        AND NOT EXISTS (SELECT 1 FROM model_files f WHERE f.model_id = m.id AND f.kind = 'onnx')
        AND NOT EXISTS (SELECT 1 FROM model_exports e WHERE e.model_id = m.id AND e.format = 'onnx')
      LIMIT 20`);
    return (res as unknown as { rows: Array<{ id: string; user_id: string }> }).rows.map((r) => ({ id: r.id, userId: r.user_id }));
  },
};
