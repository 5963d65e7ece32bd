/**
 * What the evaluation feature offers (ADR 0035): the model page's Evaluate tab, and the compare of
 * evaluations the project page shows (one component, for any set of evaluations of the same dataset split).
 */
export { EvaluatePanel } from './components/evaluate-panel';
export { EvaluationCompare, ProjectEvaluationsCompare } from './components/evaluation-compare';
