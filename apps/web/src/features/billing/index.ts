/**
 * Public surface of the billing feature: the Settings billing tab, the model page's cost card and
 * the admin page's billing section (other features import only from here).
 */
export { BillingTab } from './components/billing-tab';
export { ModelCostCard } from './components/model-cost-card';
export { AdminBillingSection } from './components/admin-billing-section';
export { AdminUpgradeRequests, useOpenUpgradeRequests } from './components/admin-upgrade-requests';
