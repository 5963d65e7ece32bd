import { STARTUP_SECTIONS, type StartupSection } from '@sightline/contracts';
import { createStore, useStore } from './create-store';
import { createLogger } from './logger';

const log = createLogger('startup');

/** Startup of the authenticated layout (spec §2, §4): four sections, loaded by priority. */
export type SectionState = Record<StartupSection, boolean>;
export const SECTIONS = Object.keys(STARTUP_SECTIONS) as StartupSection[];

const urlSection: Record<string, StartupSection> = {
  datasets: 'dataset',
  models: 'model',
  projects: 'project',
  teams: 'team',
  integrations: 'dataset',
};

/** Sections in load order: the one matching the URL first, then by priority (team 10, dataset 7, project 6, model 5). */
export function loadOrder(pathname: string): StartupSection[] {
  const first = urlSection[pathname.split('/')[1] ?? ''];
  const byPriority = [...SECTIONS].sort((a, b) => STARTUP_SECTIONS[b] - STARTUP_SECTIONS[a]);
  return first ? [first, ...byPriority.filter((s) => s !== first)] : byPriority;
}

export function createStartup() {
  const store = createStore<SectionState>({ team: false, dataset: false, project: false, model: false });
  let started: Promise<void> | null = null;
  return {
    store,
    markInitialized(section: StartupSection) {
      store.setState((s) => (s[section] ? s : { ...s, [section]: true }));
    },
    /** Runs the loaders once, one after the other in load order; a failed loader still counts as initialized. */
    run(pathname: string, loaders: Record<StartupSection, () => Promise<unknown>>): Promise<void> {
      if (started) return started;
      started = (async () => {
        for (const section of loadOrder(pathname)) {
          try {
            await loaders[section]();
          } catch (error) {
            log.warn(`section ${section} failed to load`, error);
          }
          this.markInitialized(section);
        }
      })();
      return started;
    },
    reset() {
      started = null;
      store.setState({ team: false, dataset: false, project: false, model: false });
    },
  };
}

export const startup = createStartup();
export const useStartup = () => useStore(startup.store);
export const allInitialized = (s: SectionState) => SECTIONS.every((k) => s[k]);
