import type { ReactNode } from 'react';
import { EmptyState } from '../../../components/empty-state';

/** Integrations, billing and teams arrive in later issues; until then the tab says so plainly. */
export function PlaceholderTab({ icon, title, description, action }: { icon: ReactNode; title: string; description: string; action?: ReactNode }) {
  return <EmptyState icon={icon} title={title} description={description} action={action} />;
}
