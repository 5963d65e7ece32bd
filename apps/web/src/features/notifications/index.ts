/** What the notifications feature offers the app shell: the header bell with the unread count (ADR 0028). */
export { NotificationBell } from './components/notification-bell';
