export * from './errors.js';
export * from './constants.js';
export * from './format.js';
export * from './ids.js';
export * from './users.js';
export * from './envelope.js';
export * from './realtime.js';
