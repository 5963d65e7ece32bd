/**
 * The pure part of dataset archive checking, shared by the server's processing and the web app's
 * check before upload: entry-name helpers, stable error codes, and layout detection from entry names
 * alone. No Node imports and no zod, so it is cheap for the browser; imported through the
 * `@sightline/contracts/dataset-layout` subpath so it stays out of bundles that do not need it.
 */
export * from './types.js';
export * from './paths.js';
export * from './errors.js';
export * from './layout.js';
export * from './validate.js';
export * from './image-bytes.js';
export * from './pair.js';
export * from './precheck.js';
