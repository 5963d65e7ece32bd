/** What the datasets feature offers other features (the team page lists a team's datasets with the same card; leaving a team purges its datasets locally). */
export { DatasetCard } from './components/dataset-card';
export { datasetsList } from './stores/datasets-list';
