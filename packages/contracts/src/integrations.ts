import { z } from 'zod';

/**
 * Roboflow integration (spec §3 Integration, Subscription, Settings.integrations.roboflow; §7 task
 * mapping). The workspace API key goes in, never comes out: no response schema has a key field.
 */

/** Spec §7: the project types Sightline imports, and the dataset task each becomes. */
export const ROBOFLOW_TASKS = {
  classification: 'classify',
  'object-detection': 'detect',
  'instance-segmentation': 'segment',
  'semantic-segmentation': 'semantic-segment',
} as const;
export type RoboflowImportableType = keyof typeof ROBOFLOW_TASKS;

export function roboflowTask(type: string): (typeof ROBOFLOW_TASKS)[RoboflowImportableType] | null {
  return Object.hasOwn(ROBOFLOW_TASKS, type) ? ROBOFLOW_TASKS[type as RoboflowImportableType] : null;
}

/** Spec §4: external datasets show Ready, No Version or No Images. */
export const ROBOFLOW_STATUSES = ['Ready', 'No Version', 'No Images'] as const;
export type RoboflowStatus = (typeof ROBOFLOW_STATUSES)[number];
export function roboflowStatus(p: { images: number; versions: number }): RoboflowStatus {
  if (p.images <= 0) return 'No Images';
  if (p.versions <= 0) return 'No Version';
  return 'Ready';
}

/** A private API key (publishable ones start with `rf_` and are refused with a clear message). */
export const roboflowApiKey = z.string().trim().min(8, 'Paste the private API key of the workspace').max(200).regex(/^\S+$/, 'An API key has no spaces');

export const linkWorkspaceBody = z.object({ apiKey: roboflowApiKey });
export const replaceKeyBody = z.object({ apiKey: roboflowApiKey });
/** `workspace/project`, `https://universe.roboflow.com/ws/project[/dataset/3]` or an app.roboflow.com URL. */
export const subscribeBody = z.object({ project: z.string().trim().min(3).max(300), apiKey: roboflowApiKey.optional() });
export const integrationSettingsBody = z.object({ uploadAllWeights: z.boolean() });

export const integrationSchema = z.object({
  id: z.string(),
  type: z.literal('roboflow'),
  workspace: z.object({ slug: z.string(), name: z.string() }),
  dates: z.object({ created: z.string(), updated: z.string() }),
});
export type Integration = z.infer<typeof integrationSchema>;

export const subscriptionSchema = z.object({
  id: z.string(),
  ref: z.object({ collection: z.literal('ext_roboflow'), id: z.string() }),
  /** true when the subscription has its own key; otherwise a linked workspace's key is used. */
  hasOwnKey: z.boolean(),
  dates: z.object({ created: z.string(), updated: z.string() }),
});
export type Subscription = z.infer<typeof subscriptionSchema>;

export const integrationSettingsSchema = z.object({ uploadAllWeights: z.boolean() });

export const integrationsOverviewSchema = z.object({
  integrations: z.array(integrationSchema),
  subscriptions: z.array(subscriptionSchema),
  settings: integrationSettingsSchema,
});
export type IntegrationsOverview = z.infer<typeof integrationsOverviewSchema>;

const splitsSchema = z.object({ train: z.number(), valid: z.number(), test: z.number() });

export const roboflowProjectSchema = z.object({
  /** `workspace/project`, Roboflow's own id. */
  id: z.string(),
  workspace: z.string(),
  slug: z.string(),
  name: z.string(),
  type: z.string(),
  /** the Sightline task (spec §7); null for a type that is not imported */
  task: z.string().nullable(),
  /** why the project cannot be imported (unknown type, multi-label), shown greyed */
  unsupportedReason: z.string().nullable(),
  source: z.enum(['workspace', 'universe']),
  images: z.number(),
  versions: z.number(),
  classes: z.record(z.string(), z.number()),
  splits: splitsSchema,
  icon: z.string().nullable(),
  updated: z.string().nullable(),
  public: z.boolean(),
  status: z.enum(ROBOFLOW_STATUSES),
});
export type RoboflowProject = z.infer<typeof roboflowProjectSchema>;

export const roboflowImportStatuses = ['queued', 'exporting', 'downloading', 'imported', 'failed', 'cancelled'] as const;
export const roboflowImportSchema = z.object({
  id: z.string(),
  project: z.string(),
  version: z.number(),
  status: z.enum(roboflowImportStatuses),
  /** where the job is: export (Roboflow generating the zip, 0..1), download (bytes), processing (the dataset's own phases) */
  progress: z.object({ phase: z.string(), done: z.number(), total: z.number() }).nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  dataset: z.object({ id: z.string(), status: z.string(), name: z.string() }).nullable(),
  dates: z.object({ created: z.string(), updated: z.string(), finished: z.string().nullable() }),
});
export type RoboflowImport = z.infer<typeof roboflowImportSchema>;

export const roboflowVersionSchema = z.object({
  id: z.string(),
  number: z.number(),
  name: z.string(),
  images: z.number(),
  splits: splitsSchema,
  created: z.string().nullable(),
  import: roboflowImportSchema.nullable(),
});
export type RoboflowVersion = z.infer<typeof roboflowVersionSchema>;

export const roboflowProjectDetailSchema = z.object({
  project: roboflowProjectSchema,
  versions: z.array(roboflowVersionSchema),
});
export type RoboflowProjectDetail = z.infer<typeof roboflowProjectDetailSchema>;

export const roboflowBoxSchema = z.object({
  label: z.string(),
  /** centre and size in pixels of the image (Roboflow's convention) */
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  points: z.array(z.object({ x: z.number(), y: z.number() })).optional(),
});
export const roboflowPreviewSchema = z.object({
  id: z.string(),
  name: z.string(),
  split: z.string().nullable(),
  labels: z.array(z.string()),
  width: z.number(),
  height: z.number(),
  /** a data: URL, so the browser needs no access to Roboflow's image host */
  image: z.string().nullable(),
  boxes: z.array(roboflowBoxSchema),
});
export type RoboflowPreview = z.infer<typeof roboflowPreviewSchema>;

export const roboflowBrowseSchema = z.object({
  workspaces: z.array(
    z.object({
      integrationId: z.string(),
      workspace: z.object({ slug: z.string(), name: z.string() }),
      projects: z.array(roboflowProjectSchema),
      /** projects beyond the listing limit (spec §7: limit 100) */
      more: z.number(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
  subscriptions: z.array(
    z.object({
      subscriptionId: z.string(),
      ref: z.string(),
      project: roboflowProjectSchema.nullable(),
      error: z.object({ code: z.string(), message: z.string() }).nullable(),
    }),
  ),
});
export type RoboflowBrowse = z.infer<typeof roboflowBrowseSchema>;

export const roboflowSyncResultSchema = z.object({ started: z.array(roboflowImportSchema), upToDate: z.boolean() });

/** `ws/project` from a slug or a Universe/app URL; null when it names no project. */
export function parseRoboflowProjectRef(input: string): { workspace: string; project: string } | null {
  let text = input.trim();
  const url = /^https?:\/\/([^/]+)(\/[^?#]*)/i.exec(text);
  if (url) {
    if (!/(^|\.)roboflow\.com$/i.test(url[1]!)) return null;
    text = url[2]!;
  }
  const parts = text.split('/').filter(Boolean);
  if (parts.length < 2) return null;
  const [workspace, project] = parts as [string, string];
  const slug = /^[a-z0-9][a-z0-9_-]{0,99}$/i;
  return slug.test(workspace) && slug.test(project) ? { workspace: workspace.toLowerCase(), project: project.toLowerCase() } : null;
}
