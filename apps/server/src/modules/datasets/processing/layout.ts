// Moved to @sightline/contracts/dataset-layout (layout.ts) so the web app runs the same checks before upload.
export * from '@sightline/contracts/dataset-layout';
