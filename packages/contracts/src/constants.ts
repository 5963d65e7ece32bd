/** Business constants of spec §9 and §1. One place, used by server and web. */
export const APP_VERSION = 'v0.1.85-rc.1';
export const APP_ENVIRONMENT = 'staging';
export const SCHEMA_VERSION = 2;
export const DEFAULT_TASK = 'detect';

export const NOTIFICATION_TIMEOUT_MS = 4000;
export const NOTIFICATION_ACTION_TIMEOUT_MS = 6000;
export const NOTIFICATION_PENDING_TIMEOUT_MS = 10000;
export const NOTIFICATION_RETRY_MS = 2000;
export const NOTIFICATION_PROGRESS_TICK_MS = 100;

export const TRAINING_HEARTBEAT_MS = 5 * 60 * 1000;
export const TRAINING_INITIALIZATION_MS = 15 * 60 * 1000;

/**
 * One max length for every name a user or client gives (projects, models, datasets, training runs),
 * checked on create, update and the training protocols alike (ADR 0013).
 */
export const NAME_MAX = 100;
export const DESCRIPTION_MAX = 1000;
/** The API's input guard (server `platform/http/input-guard.ts`): deepest JSON nesting accepted. */
export const INPUT_LIMITS = { jsonDepth: 64 } as const;

export const TEAM_NAME_MAX = 42;
export const TEAM_DESCRIPTION_MAX = 100;
export const FEEDBACK_REVIEW_MAX = 500;
export const FEEDBACK_RATING_MAX = 5;

export const EXTERNAL_FETCH_LIMIT = 100;
export const EXTERNAL_PREVIEW_LIMIT = 5;
export const TEAM_PLACEHOLDER_CARDS = 10;

export const CONNECTIVITY_INTERVAL_MS = 5000;
export const CONNECTIVITY_CONNECTING_AFTER = 2;
export const CONNECTIVITY_OFFLINE_AFTER = 9;
export const USER_DOC_RETRY_MS = 100;

export const REMOTE_CONFIG_DEFAULTS = {
  cloudTraining: false,
  teamsCollaboration: true,
  walletTopUp: false,
  /** Not in the spec's defaults: gates dedicated inference endpoints (pro + flag, spec §1). */
  dedicatedInference: false,
} as const;
export type FlagName = keyof typeof REMOTE_CONFIG_DEFAULTS;
export const REMOTE_CONFIG_MIN_FETCH_INTERVAL_MS = 3_600_000;

export const ERROR_TRACE_SAMPLE_RATE = 0.3;
export const LOGO_LOAD_WARNING_MS = 1000;
export const DEFAULT_LANGUAGE = 'en';
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'disabled'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const BREAKPOINT_MOBILE = 641;
export const BREAKPOINT_DESKTOP = 961;

export const TRASH_RETENTION_DAYS = 30;
export const ACCOUNT_DELETION_GRACE_DAYS = 30;

export const PLANS = ['free', 'pro', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** Startup load priority of the authenticated layout (spec §4). */
export const STARTUP_SECTIONS = { team: 10, dataset: 7, project: 6, model: 5 } as const;
export type StartupSection = keyof typeof STARTUP_SECTIONS;

/** 6 robot images; the default profile image is chosen by email (spec §3). */
export const ROBOT_IMAGES = ['robot-1', 'robot-2', 'robot-3', 'robot-4', 'robot-5', 'robot-6'] as const;
