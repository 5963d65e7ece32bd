// Moved to @sightline/contracts/dataset-layout (paths.ts) so the web app runs the same checks before upload.
export * from '@sightline/contracts/dataset-layout';
