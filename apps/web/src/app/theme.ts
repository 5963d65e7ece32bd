import { createTheme, localStorageColorSchemeManager, Table, type CSSVariablesResolver, type MantineColorsTuple } from '@mantine/core';

/** Sightline brand blue; "pending" notifications use its dark end (spec §8: dark blue). */
const brand: MantineColorsTuple = ['#e8f1ff', '#d0e0ff', '#a0bffa', '#6d9cf6', '#4480f3', '#2a6ef2', '#1a64f3', '#0b54d9', '#004ac3', '#0040ad'];
const night: MantineColorsTuple = ['#c9d1e3', '#a7b2cb', '#8592b1', '#5f6d8f', '#3f4d6f', '#2a3757', '#1f2a45', '#172036', '#111829', '#0b111f'];

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand, night },
  fontFamily: 'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  headings: { fontWeight: '650' },
  defaultRadius: 'md',
  cursorType: 'pointer',
  components: {
    // A table that scrolls sideways on a phone can be scrolled from the keyboard too (axe scrollable-region-focusable).
    TableScrollContainer: Table.ScrollContainer.extend({ defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } }),
  },
});

/** The color scheme (light, dark, or auto: follow the system) is remembered in this browser (Settings → Appearance). */
export const COLOR_SCHEME_KEY = 'sightline.color-scheme';
export const colorSchemeManager = localStorageColorSchemeManager({ key: COLOR_SCHEME_KEY });

/**
 * Dimmed text dark enough for WCAG AA on white and on gray-0 backgrounds; `--app-bg` (page) and
 * `--app-surface` (bars, panels) follow the color scheme.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#596169',
    '--mantine-color-error': '#c02626',
    '--app-bg': 'var(--mantine-color-gray-0)',
    '--app-surface': 'var(--mantine-color-white)',
  },
  dark: {
    '--mantine-color-dimmed': '#a6a7ab',
    '--mantine-color-error': '#ff8787',
    '--mantine-color-anchor': 'var(--mantine-color-brand-3)',
    '--app-bg': 'var(--mantine-color-dark-8)',
    '--app-surface': 'var(--mantine-color-dark-7)',
  },
});
