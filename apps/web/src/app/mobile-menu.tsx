import { IconCube, IconDatabase, IconFolders, IconSettings } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import classes from './mobile-menu.module.css';

const ITEMS = [
  { key: 'datasets', to: '/datasets', icon: IconDatabase },
  { key: 'projects', to: '/projects', icon: IconFolders },
  { key: 'models', to: '/models', icon: IconCube },
  { key: 'settings', to: '/settings', icon: IconSettings },
] as const;

/** At widths of 641 px or less: Datasets, Projects, Models and Settings (spec §2). */
export function MobileMenu() {
  const { t } = useTranslation();
  return (
    <nav className={classes.menu} aria-label={t('nav.mobile')} data-testid="mobile-menu">
      {ITEMS.map(({ key, to, icon: Icon }) => (
        <NavLink key={key} to={to} className={classes.item}>
          <Icon size={22} stroke={1.7} aria-hidden />
          <span>{t(`nav.${key}`)}</span>
        </NavLink>
      ))}
    </nav>
  );
}
