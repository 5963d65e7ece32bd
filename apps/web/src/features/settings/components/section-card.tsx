/** Moved to the shared components (billing uses it too). */
export { SectionCard } from '../../../components/section-card';
