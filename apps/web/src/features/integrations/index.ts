/** Public surface of the integrations feature (other features import only from here). */
export { IntegrationsTab } from './components/integrations-tab';
export { ActiveImportCard, useActiveImports } from './components/active-imports';
