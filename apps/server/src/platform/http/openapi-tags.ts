/**
 * The order of the API reference (/v1/docs): what a newcomer looks for first — signing in, their
 * items, training and predicting — then integrations, the legacy client protocols, and the admin
 * endpoints last (ADR 0030). Swagger UI lists tag groups in this order; a route whose tag is not
 * here would be listed after them, which a test refuses.
 */
export const OPENAPI_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'auth', description: 'Sign-up, sign-in, sessions, verification and password mails' },
  { name: 'users', description: 'Your account and profile' },
  { name: 'api-keys', description: 'API keys for the ultralytics clients and scripts' },
  { name: 'datasets', description: 'Datasets: upload, processing, images and labels' },
  { name: 'dataset-versions', description: 'Numbered versions of a dataset: save, download, diff, trash (ADR 0038)' },
  { name: 'labelling', description: 'Pre-labelling with a model, suggestions and review filters (ADR 0039)' },
  { name: 'projects', description: 'Projects and their models' },
  { name: 'models', description: 'Models, weights and files' },
  { name: 'training', description: 'Training runs and their progress' },
  { name: 'exports', description: 'Model exports to other formats' },
  { name: 'inference', description: 'Predictions and dedicated endpoints' },
  { name: 'evaluations', description: 'Models scored on a dataset split: metrics, curves and the images they get wrong' },
  { name: 'explore', description: "Others' public datasets, projects and models" },
  { name: 'recent', description: 'Recent items and search' },
  { name: 'teams', description: 'Teams, members and invites' },
  { name: 'notifications', description: 'Your notification records and the bell’s count' },
  { name: 'trash', description: 'Deleted items and their restore' },
  { name: 'billing', description: 'Plans, wallet, payments and upgrade requests' },
  { name: 'support', description: 'The admin contact' },
  { name: 'integrations', description: 'Roboflow' },
  { name: 'webhooks', description: 'Outgoing webhooks' },
  { name: 'agents', description: 'GPU agents and their jobs' },
  { name: 'realtime', description: 'The realtime socket' },
  { name: 'config', description: 'Remote config and feature flags' },
  { name: 'health', description: 'Liveness and readiness' },
  { name: 'compat', description: 'The ultralytics clients’ HUB and Platform protocols' },
  { name: 'admin', description: 'Server administration (admins only)' },
];
