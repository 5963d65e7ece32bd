// Moved to @sightline/contracts/dataset-layout (validate.ts) so the web app runs the same checks before upload (ADR 0029).
export * from '@sightline/contracts/dataset-layout';
