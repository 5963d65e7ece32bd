/**
 * Public surface of the agents feature: cloud training in the train dialog and on the model page,
 * and the admin page's agents / GPU types / jobs section.
 */
export { CloudTrainingForm } from './components/cloud-training-form';
export { CloudRunCard } from './components/cloud-run-card';
export { AdminAgentsSection } from './components/admin-agents-section';
export { MyAgentsCard } from './components/my-agents-card';
export { StartAgentCommand } from './components/start-agent-command';
