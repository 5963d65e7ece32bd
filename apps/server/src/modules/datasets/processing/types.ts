// Moved to @sightline/contracts/dataset-layout (types.ts) so the web app runs the same checks before upload.
export * from '@sightline/contracts/dataset-layout';
