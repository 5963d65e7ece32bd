/** Global search and Home's Recent card (ADR 0018). */
export { RecentCard } from './components/recent-card';
export { SearchBox } from './components/search-box';
export { SearchLauncher } from './components/search-launcher';
