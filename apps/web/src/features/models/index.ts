/**
 * What the models feature offers the project pages (a project lists, uploads and trains its
 * models). The dependency goes one way: projects → models; models never import projects.
 */
export { useDeleteModel } from './api/delete-model';
export { isListed as isListedModel } from './api/get-models';
export { LiveModelStatusBadge, ModelStatusBadge, runReason } from './components/model-status-badge';
export { TrainDialog } from './components/train-dialog/train-dialog';
export { UploadModelDialog } from './components/upload-model-dialog';
export { ProjectCompareCharts } from './components/project-compare/project-compare-charts';
export { ModelCard } from './components/model-card';
