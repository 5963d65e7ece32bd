/** What the jobs feature offers the app shell: the header's Active jobs link while something runs. */
export { ActiveJobsLink } from './components/active-jobs-link';
