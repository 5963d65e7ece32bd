/** Public surface of the exports feature: the model page's Exports section. */
export { ModelExports } from './components/model-exports';
export { ExportWorkerNotice } from './components/export-worker-notice';
