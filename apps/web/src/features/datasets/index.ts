/** What the datasets feature offers other features (the team page lists a team's datasets with the same card; leaving a team purges its datasets locally). */
export { DatasetCard } from './components/dataset-card';
export { datasetsList } from './stores/datasets-list';
/** The evaluation feature opens the images a model gets wrong in the same lightbox, its predictions drawn over the labels. */
export { ImageLightbox } from './components/image-lightbox';
export type { PredictionBox } from './components/label-overlay';
export { getDatasets } from './api/get-datasets';
/** The annotation editor reads the dataset (task, classes, abilities) through the same query and cache. */
export { useDataset } from './api/get-dataset';
/** The editor's "changed since version N" filter lists the dataset's versions. */
export { useDatasetVersions } from './api/get-dataset-versions';
