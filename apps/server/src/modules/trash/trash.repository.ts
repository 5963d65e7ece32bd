import { and, eq, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { datasets, models, projects } from '../../platform/db/schema.js';

/** What sits in the trash: per user for the trash page, and past the retention for the purge job. */
export const trashRepository = {
  datasetsOf: (db: Db, userId: string) =>
    db
      .select()
      .from(datasets)
      .where(and(eq(datasets.userId, userId), isNotNull(datasets.deletedAt))),
  projectsOf: (db: Db, userId: string) =>
    db
      .select()
      .from(projects)
      .where(and(eq(projects.userId, userId), isNotNull(projects.deletedAt))),
  modelsOf: (db: Db, userId: string) =>
    db
      .select()
      .from(models)
      .where(and(eq(models.userId, userId), isNotNull(models.deletedAt))),
  projectsDeletedBefore: (db: Db, cutoff: Date) => db.select().from(projects).where(lt(projects.deletedAt, cutoff)),
  modelsDeletedBefore: (db: Db, cutoff: Date) => db.select().from(models).where(lt(models.deletedAt, cutoff)),
  datasetsDeletedBefore: (db: Db, cutoff: Date) => db.select().from(datasets).where(lt(datasets.deletedAt, cutoff)),
};
