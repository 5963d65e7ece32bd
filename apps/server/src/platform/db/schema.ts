/**
 * Drizzle table definitions, one file per owning module under ./schema/ (ADR 0033): a module's
 * tables live in schema/<module>.ts (platform's own — jobs, mail outbox, uploads — likewise) and
 * this file re-exports them all, so drizzle (client.ts) sees every table and `platform/db/schema.js`
 * stays the one import path of repositories. Nested shapes of the spec (meta, dates, stats) are
 * assembled by presenters; columns stay flat. A table added here needs its migration under
 * ./migrations (plain SQL, applied in file-name order by ./migrate.ts); the schema-drift test
 * (test/schema-drift.test.ts) fails when the two disagree.
 */
export * from './schema/users.js';
export * from './schema/auth.js';
export * from './schema/api-keys.js';
export * from './schema/flags.js';
export * from './schema/analytics.js';
export * from './schema/presence.js';
export * from './schema/mail.js';
export * from './schema/jobs.js';
export * from './schema/storage.js';
export * from './schema/trash.js';
export * from './schema/projects.js';
export * from './schema/datasets.js';
export * from './schema/models.js';
export * from './schema/uploads.js';
export * from './schema/training.js';
export * from './schema/inference.js';
export * from './schema/teams.js';
export * from './schema/agents.js';
export * from './schema/integrations.js';
export * from './schema/billing.js';
export * from './schema/webhooks.js';
export * from './schema/audit.js';
export * from './schema/notifications.js';
export * from './schema/support.js';
export * from './schema/evaluation.js';
export * from './schema/dataset-versions.js';
export * from './schema/labelling.js';
