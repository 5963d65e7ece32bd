/**
 * Public surface of the webhooks feature: the Settings section (a user's webhooks) and the admin
 * page's section (every webhook, deliveries, the private-address setting).
 */
export { WebhooksSection } from './components/webhooks-section';
export { AdminWebhooksSection } from './components/admin-webhooks-section';
