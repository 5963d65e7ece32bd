/**
 * What the teams feature offers the app shell and other features: the Teams tab of Settings, Join /
 * Decline of a pending invite (on /notifications), and the realtime listener that keeps lists in step
 * with team membership.
 */
export { TeamsTab } from './components/teams-tab';
export { InviteActions } from './components/invite-actions';
export { useTeamsRealtime } from './hooks/use-teams-realtime';
