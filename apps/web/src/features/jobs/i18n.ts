import { useTranslation } from 'react-i18next';
import { addNamespace } from '../../lib/i18n-namespace';
import en from '../../locales/en/jobs.json';

addNamespace('jobs', en);

/** The active-jobs page's strings (locales/en/jobs.json), registered with its chunk. */
export const useJobsT = () => useTranslation('jobs');
