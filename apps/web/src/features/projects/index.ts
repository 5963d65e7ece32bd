/** What the projects feature offers other features (the team page lists a team's projects with the same card). */
export { ProjectCard } from './components/project-card';
