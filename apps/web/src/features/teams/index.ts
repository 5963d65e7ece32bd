/**
 * What the teams feature offers the app shell and other features: the Teams tab of Settings, the
 * caller's pending invites (on /notifications), and the realtime listener that keeps lists in step
 * with team membership.
 */
export { TeamsTab } from './components/teams-tab';
export { MyInvites } from './components/my-invites';
export { useTeamsRealtime } from './hooks/use-teams-realtime';
