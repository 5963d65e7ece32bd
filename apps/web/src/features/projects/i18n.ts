import { useTranslation } from 'react-i18next';
import i18n from '../../lib/i18n';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/projects.json';

addNamespace('projects', en);

/** The projects feature's strings (locales/en/projects.json), registered with the feature's lazy chunk. */
export const useProjectsT = () => useTranslation('projects');

/** Outside components (notifications of the API hooks). */
export const tProjects = (key: string, options?: Record<string, string | number>) => i18n.t(`projects:${key}`, options);
