/**
 * What the notifications feature offers the app shell and Home: the header bell with the unread
 * count, and the banner of team invites waiting for an answer (ADR 0028).
 */
export { NotificationBell } from './components/notification-bell';
export { PendingInvitesBanner } from './components/pending-invites-banner';
